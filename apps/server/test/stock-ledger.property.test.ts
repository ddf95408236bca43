import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CSV_COLUMNS } from '@shop/shared/admin-products';
import { toCsv } from '@shop/shared/csv';
import { categories, orders } from '../src/db/schema.ts';
import { createProduct } from '../src/modules/catalog/service.ts';
import { ledgerBalances, stockOf } from '../src/modules/catalog/stock.ts';
import { orderDeps } from '../src/modules/orders/deps.ts';
import { recordPaid } from '../src/modules/orders/payment-results.ts';
import { setRole } from './fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { ORIGIN, shopper } from './shop.ts';

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, so a failure can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

const SEED = Number(process.env.STOCK_LEDGER_SEED ?? 20261123);
const STEPS = Number(process.env.STOCK_LEDGER_STEPS ?? 80);

type Open = {
  orderNo: string;
  total: number;
  status: 'pending_payment' | 'paid' | 'processing';
  cancel: () => Promise<unknown>;
};

/**
 * Random sequences of sales, payments, cancellations, expiries, refunds, CSV imports and console
 * adjustments through the real services and routes; after every step each variant's ledger adds
 * up to its stock, which is never below zero (docs/product-rules.md).
 */
describe.skipIf(!dbAvailable())('stock ledger (property)', () => {
  let ctx: TestContext;
  let ownerCookie: string;
  const skus = ['LEDGER-A', 'LEDGER-B', 'LEDGER-C'];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    const db = ctx.database.db;
    const [cat] = await db
      .insert(categories)
      .values({ slug: 'ware', name: '茶器', sortOrder: 1 })
      .returning();
    const base = {
      summary: '',
      tags: [],
      specs: [],
      description: [],
      images: [],
      status: 'active' as const,
      sortWeight: 0,
      categoryId: cat!.id,
    };
    await createProduct(db, { ...base, slug: 'ledger-cup', name: '帳本杯' }, [
      { sku: 'LEDGER-A', options: { 規格: '小' }, price: 300, stock: 6, lowStockThreshold: 1 },
      { sku: 'LEDGER-B', options: { 規格: '大' }, price: 500, stock: 2, lowStockThreshold: 1 },
    ]);
    await createProduct(db, { ...base, slug: 'ledger-pot', name: '帳本壺' }, [
      { sku: 'LEDGER-C', options: { 規格: '標準' }, price: 900, stock: 0, lowStockThreshold: 1 },
    ]);
    const { productVariants } = await import('../src/db/schema.ts');
    for (const v of await db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants))
      ids[v.sku] = v.id;
    ownerCookie = (await signIn(ctx.app, 'ledger-owner@example.com')).cookie;
    await setRole(ctx.database, 'ledger-owner@example.com', 'owner');
  });
  afterAll(async () => ctx.close());

  const owner = (
    method: 'GET' | 'POST',
    url: string,
    payload?: string | object,
    headers: Record<string, string> = {},
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { cookie: ownerCookie, origin: ORIGIN, ...headers },
      ...(payload !== undefined ? { payload } : {}),
    });

  const assertBalanced = async (step: string) => {
    for (const sku of skus) {
      const { stock, ledger } = await ledgerBalances(ctx.database.db, ids[sku]!);
      expect({ step, sku, ledger }).toEqual({ step, sku, ledger: stock });
      expect(stock, `${step}: ${sku}`).toBeGreaterThanOrEqual(0);
    }
  };

  it(
    `keeps ledger sum = stock ≥ 0 after each of ${STEPS} random steps (seed ${SEED})`,
    { timeout: 120_000 },
    async () => {
      const rnd = prng(SEED);
      const open: Open[] = [];
      let shoppers = 0;
      await assertBalanced('start');
      for (let i = 0; i < STEPS; i++) {
        const op = rnd.pick([
          'sale',
          'sale',
          'sale',
          'pay',
          'cancel',
          'expire',
          'refund',
          'import',
          'adjust',
        ] as const);
        const step = `#${i} ${op}`;
        if (op === 'sale') {
          const s = await shopper(ctx.app, `ledger-${shoppers++}@example.com`);
          const sku = rnd.pick(skus);
          await s.add(ids[sku]!, rnd.int(1, 3));
          const card = rnd.next() < 0.5;
          const res = await s.order({
            idempotencyKey: randomUUID(),
            paymentMethod: card ? 'credit_card' : 'cod',
          });
          if (res.statusCode === 201) {
            const { orderNo, total } = res.json().order;
            open.push({
              orderNo,
              total,
              status: card ? 'pending_payment' : 'processing',
              cancel: () =>
                card
                  ? s.call('POST', `/api/orders/${orderNo}/cancel`)
                  : owner('POST', `/api/admin/orders/${orderNo}/actions`, {
                      action: 'cancel',
                      reason: '測試取消',
                    }),
            });
          } else expect([409, 400], res.body).toContain(res.statusCode);
        } else if (op === 'pay') {
          const o = open.find((x) => x.status === 'pending_payment');
          if (o) {
            await recordPaid(orderDeps(ctx.app), {
              merchantTradeNo: `${o.orderNo}P1`,
              amount: o.total,
              tradeNo: `T${i}`,
              rtnCode: '1',
              rtnMsg: '交易成功',
            });
            o.status = 'paid';
          }
        } else if (op === 'cancel') {
          const o = open.length ? rnd.pick(open) : undefined;
          if (o) {
            if (o.status === 'paid')
              await owner('POST', `/api/admin/orders/${o.orderNo}/actions`, {
                action: 'cancel',
                reason: '測試取消',
              });
            else await o.cancel();
            open.splice(open.indexOf(o), 1);
          }
        } else if (op === 'expire') {
          const o = open.find((x) => x.status === 'pending_payment');
          if (o) {
            await ctx.database.db
              .update(orders)
              .set({ expiresAt: new Date(Date.now() - 1000) })
              .where(eq(orders.orderNo, o.orderNo));
            await ctx.app.sweepExpiredOrders();
            open.splice(open.indexOf(o), 1);
          }
        } else if (op === 'refund') {
          const o = open.find((x) => x.status === 'paid');
          if (o) {
            const res = await owner('POST', `/api/admin/orders/${o.orderNo}/actions`, {
              action: 'refund',
              reason: '測試退款',
            });
            expect(res.statusCode, res.body).toBe(200);
            open.splice(open.indexOf(o), 1);
          }
        } else if (op === 'import') {
          const sku = rnd.pick(skus);
          const current = (await stockOf(ctx.database.db, ids[sku]!))!.stock;
          const wanted = Math.max(0, current + rnd.int(-3, 5));
          const [slug, name, option, price] =
            sku === 'LEDGER-C'
              ? ['ledger-pot', '帳本壺', '規格=標準', 900]
              : [
                  'ledger-cup',
                  '帳本杯',
                  sku === 'LEDGER-A' ? '規格=小' : '規格=大',
                  sku === 'LEDGER-A' ? 300 : 500,
                ];
          const csv = toCsv([
            PRODUCT_CSV_COLUMNS,
            [slug, name, 'ware', 'active', sku, option, price, '', wanted, 1, current],
          ]);
          const res = await owner('POST', '/api/admin/products/import', csv, { 'content-type': 'text/csv' });
          expect(res.statusCode, res.body).toBe(200);
        } else {
          const sku = rnd.pick(skus);
          const delta = rnd.int(-4, 6) || 1;
          const res = await owner('POST', `/api/admin/variants/${ids[sku]}/stock`, { delta, reason: '盤點' });
          expect([200, 409], res.body).toContain(res.statusCode);
        }
        await assertBalanced(step);
      }
    },
  );

  it("shows a variant's history to the console, newest first, with its reasons, paged", async () => {
    const url = `/api/admin/products/${(await stockOf(ctx.database.db, ids['LEDGER-A']!))!.productId}/variants/${ids['LEDGER-A']}/stock-history`;
    const first = await owner('GET', `${url}?pageSize=100`);
    expect(first.statusCode, first.body).toBe(200);
    const history = first.json();
    const { stock } = (await stockOf(ctx.database.db, ids['LEDGER-A']!))!;
    expect(history).toMatchObject({ variantId: ids['LEDGER-A'], sku: 'LEDGER-A', stock, page: 1 });
    expect(history.items[0].stockAfter).toBe(stock);
    expect(history.items.at(-1)).toMatchObject({ kind: 'initial', delta: 6, stockAfter: 6 });
    expect(history.items.reduce((n: number, e: { delta: number }) => n + e.delta, 0)).toBe(stock);
    const paged = (await owner('GET', `${url}?page=2&pageSize=1`)).json();
    expect(paged).toMatchObject({ page: 2, pageSize: 1, total: history.total });
    expect(paged.items).toEqual([history.items[1]]);
    // Another product's variant is not found through this product.
    expect((await owner('GET', url.replace(ids['LEDGER-A']!, ids['LEDGER-C']!))).statusCode).toBe(404);
  });
});
