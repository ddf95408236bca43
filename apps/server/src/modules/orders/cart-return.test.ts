import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { latestMail } from '../../../test/mail.ts';
import { ecpayNotice, notifyPayment, ORIGIN, shopper, shopWithCatalog } from '../../../test/shop.ts';
import { orders, productVariants, products } from '../../db/schema.ts';

type Cart = { lines: Array<{ sku: string; quantity: number }> };

/**
 * An unpaid order that expires, or that its buyer cancels, puts its lines back in the cart through
 * the orders' one door (docs/product-rules.md#orders-stock-holds-and-coupons).
 */
describe.skipIf(!dbAvailable())('an unpaid order that ends gives its lines back to the cart', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ({ ctx, variants } = await shopWithCatalog());
  });
  afterAll(async () => ctx.close());

  const cartOf = async (s: Awaited<ReturnType<typeof shopper>>) =>
    Object.fromEntries(
      ((await s.call('GET', '/api/cart')).json() as Cart).lines.map((l) => [l.sku, l.quantity]),
    );
  const lastNote = async (s: Awaited<ReturnType<typeof shopper>>, orderNo: string) =>
    (
      (await s.call('GET', `/api/orders/${orderNo}`)).json() as { events: Array<{ note: string | null }> }
    ).events.at(-1)!.note;
  const expire = async (orderNo: string) => {
    await ctx.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.orderNo, orderNo));
    await ctx.app.sweepExpiredOrders();
  };
  const setStock = (sku: string, stock: number) =>
    ctx.database.db.update(productVariants).set({ stock }).where(eq(productVariants.sku, sku));

  it('expiry: merged with what the cart holds, never past the stock, and the history and the mail say so', async () => {
    const s = await shopper(ctx.app, 'back-expired@example.com');
    await setStock('POT-1', 3);
    await s.add(variants['POT-1']!, 2);
    await s.add(variants['CUP-1']!, 1);
    const placed = await s.order({ paymentMethod: 'credit_card' });
    expect(placed.statusCode, placed.body).toBe(201);
    const { orderNo } = placed.json().order as { orderNo: string };
    expect(await cartOf(s)).toEqual({});
    // The member puts one more pot in the cart, and someone else buys another: one is left.
    expect((await s.add(variants['POT-1']!, 1)).statusCode).toBe(200);
    const other = await shopper(ctx.app, 'back-other@example.com');
    await other.add(variants['POT-1']!, 1);
    expect((await other.order()).statusCode).toBe(201);

    await expire(orderNo);
    // Two pots are in stock again (the expired order's): the cart holds two, not three; the cup goes back whole.
    expect(await cartOf(s)).toEqual({ 'POT-1': 2, 'CUP-1': 1 });
    const note =
      '超過付款期限，訂單已自動取消；商品已放回購物車；「朱泥手拉坯茶壺（150 g）」庫存只剩 2 件，購物車裡共 2 件。';
    expect(await lastNote(s, orderNo)).toBe(note);
    const mail = await latestMail(ctx.database, 'back-expired@example.com', 'order-expired');
    expect(mail.text).toContain(
      '商品已放回購物車；「朱泥手拉坯茶壺（150 g）」庫存只剩 2 件，購物車裡共 2 件。想購買的話，可以直接從購物車結帳。',
    );
  });

  it('the member’s cancel: the answer says what went back; a product that left the shop stays out', async () => {
    const s = await shopper(ctx.app, 'back-cancel@example.com');
    await s.add(variants['DD-S']!, 1);
    await s.add(variants['LS-S']!, 1);
    const { orderNo } = (await s.order({ paymentMethod: 'credit_card' })).json().order as { orderNo: string };
    const lishan = (
      await ctx.database.db
        .select({ productId: productVariants.productId })
        .from(productVariants)
        .where(eq(productVariants.sku, 'LS-S'))
    )[0]!.productId;
    await ctx.database.db.update(products).set({ status: 'draft' }).where(eq(products.id, lishan));
    try {
      const res = await s.call('POST', `/api/orders/${orderNo}/cancel`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'cancelled',
        cartNote: '商品已放回購物車；「梨山高山茶（75 g）」已下架，沒有放回。',
      });
      expect(await cartOf(s)).toEqual({ 'DD-S': 1 });
      expect(await lastNote(s, orderNo)).toBe(
        '會員取消訂單；商品已放回購物車；「梨山高山茶（75 g）」已下架，沒有放回。',
      );
      const mail = await latestMail(ctx.database, 'back-cancel@example.com', 'order-cancelled');
      expect(mail.text).toContain(`您已取消訂單 ${orderNo}。`);
      expect(mail.text).toContain(
        '商品已放回購物車；「梨山高山茶（75 g）」已下架，沒有放回。想購買的話，可以直接從購物車結帳。',
      );
    } finally {
      await ctx.database.db.update(products).set({ status: 'active' }).where(eq(products.id, lishan));
    }
  });

  it('staff cancelling an unpaid order, or a paid order ending, leaves the cart alone', async () => {
    const s = await shopper(ctx.app, 'back-staff@example.com');
    const staff = await shopper(ctx.app, 'back-staff-member@example.com');
    await setRole(ctx.database, 'back-staff-member@example.com', 'staff');
    await s.add(variants['CUP-1']!, 1);
    const unpaid = (await s.order({ paymentMethod: 'credit_card' })).json().order as { orderNo: string };
    const cancel = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${unpaid.orderNo}/actions`,
      headers: { cookie: staff.cookie, origin: ORIGIN },
      payload: { action: 'cancel', reason: '庫存盤點有誤' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await cartOf(s)).toEqual({});
    expect(await lastNote(s, unpaid.orderNo)).toBe('店家取消訂單：庫存盤點有誤');
  });

  it('a late payment restores an expired order: the lines expiry put back leave the cart again', async () => {
    const s = await shopper(ctx.app, 'back-late@example.com');
    await s.add(variants['DD-S']!, 1);
    const { orderNo } = (await s.order({ paymentMethod: 'credit_card' })).json().order as { orderNo: string };
    await expire(orderNo);
    expect(await cartOf(s)).toEqual({ 'DD-S': 1 });
    expect(await notifyPayment(ctx.app, ecpayNotice(orderNo, '1', '交易成功'))).toBe('1|OK');
    expect((await s.call('GET', `/api/orders/${orderNo}`)).json().status).toBe('paid');
    expect(await cartOf(s)).toEqual({});
  });
});
