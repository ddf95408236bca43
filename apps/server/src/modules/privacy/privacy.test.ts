import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addresses,
  auditLog,
  cartItems,
  contactMessages,
  invoices,
  marketingConsents,
  orders,
  outboxMessages,
  productVariants,
  restockRequests,
  sessions,
  userIdentities,
  users,
  wishlistItems,
} from '../../db/schema.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { latestMail, mailSettled } from '../../../test/mail.ts';
import { shopper } from '../../../test/shop.ts';

describe.skipIf(!dbAvailable())("a member's own data: export and deletion", () => {
  let ctx: TestContext;
  let ids: Awaited<ReturnType<typeof seedTestCatalog>>['ids'];
  const variantOf = async (sku: string) =>
    (await ctx.database.db.select().from(productVariants).where(eq(productVariants.sku, sku)))[0]!;
  /** Opens the 5-minute window a password confirmation opens, for this member's sessions. */
  const confirmed = (uid: string) =>
    ctx.database.db.update(sessions).set({ reauthenticatedAt: new Date() }).where(eq(sessions.userId, uid));

  /** A member with something everywhere: an address, a finished order with its invoice, 收藏, a restock wait, a cart line, a message. */
  async function busyMember(email: string) {
    const m = await shopper(ctx.app, email);
    const address = await m.call('POST', '/api/me/addresses', {
      kind: 'home',
      recipientName: '林小嵐',
      phone: '0912345678',
      city: '南投縣',
      district: '鹿谷鄉',
      address: '興產路 87 號',
      isDefault: true,
    });
    expect(address.statusCode, address.body).toBeLessThan(300);
    const cup = await variantOf('CUP-1');
    expect((await m.add(cup.id)).statusCode).toBe(200);
    const placed = await m.order();
    expect(placed.statusCode, placed.body).toBe(201);
    const orderNo = placed.json().order.orderNo as string;
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo));
    await ctx.database.db
      .update(orders)
      .set({
        status: 'completed',
        note: '請放管理室',
        invoice: { type: 'mobile', mobileBarcode: '/ABC+123' },
      })
      .where(eq(orders.id, order!.id));
    await ctx.database.db.insert(invoices).values({
      orderId: order!.id,
      relateNumber: `R${order!.orderNo}`,
      invoiceNo: `AB${String(Date.now()).slice(-8)}`,
      invoiceDate: '2026-11-20 10:00:00',
      randomNumber: '1234',
      amount: order!.total,
      issuedTo: { type: 'mobile', mobileBarcode: '/ABC+123' },
    });
    expect((await m.call('PUT', `/api/wishlist/${ids.pot}`)).statusCode).toBe(204);
    const soldOut = await variantOf('RB-S');
    expect((await m.call('POST', '/api/restock-requests', { variantId: soldOut.id })).statusCode).toBe(204);
    expect((await m.add(cup.id)).statusCode).toBe(200);
    await ctx.database.db.insert(contactMessages).values({
      referenceNo: `C${Date.now()}`,
      name: '林小嵐',
      email,
      phone: '0912345678',
      subject: '詢問',
      message: '請問冬茶何時到貨？',
      ip: '203.0.113.9',
    });
    expect((await m.call('PUT', '/api/me/marketing-consent', { granted: true })).statusCode).toBe(200);
    await ctx.database.db
      .insert(userIdentities)
      .values({ provider: 'line', subject: `U${m.uid.replaceAll('-', '')}`, userId: m.uid, email: null });
    return { ...m, orderNo, orderId: order!.id };
  }

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ ids } = await seedTestCatalog(ctx.database));
  });
  afterAll(async () => ctx.close());

  it('export and deletion need the password confirmed moments ago', async () => {
    const m = await shopper(ctx.app, 'not-confirmed@example.com');
    const exported = await m.call('GET', '/api/me/data-export');
    expect(exported.statusCode).toBe(403);
    expect(exported.json().error.code).toBe('requires-recent-login');
    const deleted = await m.call('POST', '/api/me/delete-account', { understood: true });
    expect(deleted.statusCode).toBe(403);
    expect((await m.call('GET', '/api/me/profile')).statusCode).toBe(200);
  });

  it('exports everything kept about the member as one JSON file', async () => {
    const m = await busyMember('export-me@example.com');
    await confirmed(m.uid);
    const res = await m.call('GET', '/api/me/data-export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="shanlan-member-data-\d{8}\.json"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data.profile.email).toBe('export-me@example.com');
    expect(data.addresses).toHaveLength(1);
    expect(data.orders.map((o: { orderNo: string }) => o.orderNo)).toEqual([m.orderNo]);
    expect(data.orders[0].invoice).toBeTruthy();
    expect(data.wishlist.map((w: { product: string }) => w.product)).toEqual(['朱泥手拉坯茶壺']);
    expect(data.restockRequests).toMatchObject([{ product: '紅玉紅茶', sku: 'RB-S', notifiedAt: null }]);
    expect(data.contactMessages).toMatchObject([{ subject: '詢問' }]);
    expect(data.signIns.length).toBeGreaterThan(0);
    expect(data.linkedSignIns).toMatchObject([{ provider: 'line' }]);
    expect(data.cookieConsents).toEqual([]);
    expect(data.consents).toMatchObject([{ kind: 'marketing-mail', granted: true, source: 'settings' }]);
  });

  it('refuses while an order is under way, and changes nothing', async () => {
    const m = await shopper(ctx.app, 'still-buying@example.com');
    expect((await m.add((await variantOf('CUP-1')).id)).statusCode).toBe(200);
    const placed = await m.order();
    expect(placed.statusCode).toBe(201);
    await confirmed(m.uid);
    const res = await m.call('POST', '/api/me/delete-account', { understood: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('account-has-open-orders');
    expect(res.json().error.message).toContain(placed.json().order.orderNo);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, m.uid));
    expect(user!.email).toBe('still-buying@example.com');
    expect(user!.disabledAt).toBeNull();
  });

  it('a member without a password (LINE or Google) is told how to confirm who they are', async () => {
    const m = await shopper(ctx.app, 'line-only@example.com');
    const res = await m.call('POST', '/api/auth/reauthenticate', { password: 'anything-at-all' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('no-password');
    expect(res.json().error.fields.password).toContain('忘記密碼');
  });

  it('refuses without the box ticked', async () => {
    const m = await shopper(ctx.app, 'unticked@example.com');
    await confirmed(m.uid);
    const res = await m.call('POST', '/api/me/delete-account', { understood: false });
    expect(res.statusCode).toBe(400);
    expect((await m.call('GET', '/api/me/profile')).statusCode).toBe(200);
  });

  it('deletes: the person is gone everywhere, orders and invoices stay without them, every session ends, and it is recorded', async () => {
    const email = 'leaving@example.com';
    const m = await busyMember(email);
    const other = await shopper(ctx.app, email); // a second browser of the same member
    await confirmed(m.uid);
    const res = await m.call('POST', '/api/me/delete-account', { understood: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['set-cookie']).toBeTruthy();

    // Every session ended at once, this one and the other browser's.
    expect((await m.call('GET', '/api/me/profile')).statusCode).toBe(401);
    expect((await other.call('GET', '/api/me/profile')).statusCode).toBe(401);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, m.uid))).toEqual([]);

    const db = ctx.database.db;
    const [user] = await db.select().from(users).where(eq(users.id, m.uid));
    expect(user).toMatchObject({
      email: `deleted-${m.uid}@deleted.invalid`,
      displayName: '已刪除的會員',
      phone: null,
      birthday: null,
      passwordHash: null,
    });
    expect(user!.disabledAt).not.toBeNull();
    for (const table of [addresses, cartItems, wishlistItems, restockRequests, userIdentities])
      expect(await db.select().from(table).where(eq(table.userId, m.uid))).toEqual([]);

    // The order and its invoice are kept, without the person.
    const [order] = await db.select().from(orders).where(eq(orders.id, m.orderId));
    expect(order!.total).toBeGreaterThan(0);
    expect(order!.shipping).toEqual({ method: 'home', recipientName: '已刪除', phone: '', city: '南投縣' });
    expect(order!.note).toBe('');
    expect(order!.invoice).toEqual({ type: 'mobile' });
    const [invoice] = await db.select().from(invoices).where(eq(invoices.orderId, m.orderId));
    expect(invoice!.invoiceNo).toMatch(/^AB\d{8}$/);
    expect(invoice!.issuedTo).toEqual({ type: 'mobile' });

    const messages = await db.select().from(contactMessages).where(eq(contactMessages.subject, '詢問'));
    expect(messages.map((c) => [c.name, c.email, c.phone, c.ip])).toContainEqual([
      '已刪除',
      'deleted@deleted.invalid',
      null,
      null,
    ]);
    expect(messages.some((c) => c.email === email)).toBe(false);

    const consents = await db.select().from(marketingConsents).where(eq(marketingConsents.userId, m.uid));
    expect(consents.map((c) => [c.granted, c.source])).toEqual([
      [true, 'settings'],
      [false, 'account-deleted'],
    ]);

    const [record] = await db.select().from(auditLog).where(eq(auditLog.action, 'member.delete-account'));
    expect(record).toMatchObject({ entity: 'user', entityId: m.uid, actorId: null });
    expect(JSON.stringify(record)).not.toContain(email);

    // One last mail to the old address; earlier mails to it no longer carry it in the outbox's record.
    const goodbye = await latestMail(ctx.database, email, 'account-deleted');
    expect(goodbye.subject).toContain('您的會員帳號已刪除');
    await mailSettled(ctx.database);
    const kept = await db.select().from(outboxMessages).where(eq(outboxMessages.kind, 'mail'));
    expect(kept.filter((o) => o.payload.to === email && o.summary.includes('帳號已刪除'))).toHaveLength(1);
    expect(kept.filter((o) => o.payload.to === email)).toHaveLength(1);

    // The address is free again, and signing in with it finds nobody.
    const again = await shopper(ctx.app, email);
    expect(again.uid).not.toBe(m.uid);
  });
});
