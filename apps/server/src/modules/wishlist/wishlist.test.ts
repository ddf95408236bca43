import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WishlistResponse } from '@shop/shared/wishlist';
import { productVariants } from '../../db/schema.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { shopper } from '../../../test/shop.ts';

describe.skipIf(!dbAvailable())('wishlist (收藏)', () => {
  let ctx: TestContext;
  let ids: Awaited<ReturnType<typeof seedTestCatalog>>['ids'];
  const variantOf = async (sku: string) =>
    (await ctx.database.db.select().from(productVariants).where(eq(productVariants.sku, sku)))[0]!;

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ ids } = await seedTestCatalog(ctx.database));
  });
  afterAll(async () => ctx.close());

  it('needs a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/wishlist' });
    expect(res.statusCode).toBe(401);
  });

  it('keeps a product once, lists it with its price and stock as they are now, and lets it go', async () => {
    const a = await shopper(ctx.app, 'wish-a@example.com');
    expect((await a.call('PUT', `/api/wishlist/${ids.dongding}`)).statusCode).toBe(204);
    expect((await a.call('PUT', `/api/wishlist/${ids.dongding}`)).statusCode).toBe(204);
    expect((await a.call('PUT', `/api/wishlist/${ids.pot}`)).statusCode).toBe(204);
    expect((await a.call('GET', '/api/wishlist/ids')).json().productIds.sort()).toEqual(
      [ids.dongding, ids.pot].sort(),
    );

    // The price changes after it was kept: the list shows the new one.
    const small = await variantOf('DD-S');
    await ctx.database.db.update(productVariants).set({ price: 520 }).where(eq(productVariants.id, small.id));
    const list = (await a.call('GET', '/api/wishlist')).json() as WishlistResponse;
    expect(list.items.map((i) => i.product.slug)).toEqual(['zhuni-pot', 'dong-ding']);
    const dd = list.items.find((i) => i.product.slug === 'dong-ding')!;
    expect(dd.variants.map((v) => [v.sku, v.price, v.stockState])).toEqual([
      ['DD-S', 520, 'in-stock'],
      ['DD-L', 880, 'sold-out'],
    ]);

    // Another member's list is their own.
    const b = await shopper(ctx.app, 'wish-b@example.com');
    expect((await b.call('GET', '/api/wishlist')).json().items).toEqual([]);

    expect((await a.call('DELETE', `/api/wishlist/${ids.pot}`)).statusCode).toBe(204);
    expect((await a.call('GET', '/api/wishlist/ids')).json().productIds).toEqual([ids.dongding]);
  });

  it('refuses a product not on sale and a malformed id, changing nothing', async () => {
    const a = await shopper(ctx.app, 'wish-c@example.com');
    const draft = await a.call('PUT', `/api/wishlist/${ids.draft}`);
    expect(draft.statusCode).toBe(404);
    expect(draft.json().error.message).toContain('找不到這項商品');
    const bad = await a.call('PUT', '/api/wishlist/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect((await a.call('GET', '/api/wishlist/ids')).json().productIds).toEqual([]);
  });

  it('moves a kept product to the cart in one call, and refuses a variant of another product or sold out', async () => {
    const a = await shopper(ctx.app, 'wish-d@example.com');
    await a.call('PUT', `/api/wishlist/${ids.dongding}`);
    const cup = await variantOf('CUP-1');
    const wrong = await a.call('POST', `/api/wishlist/${ids.dongding}/cart`, { variantId: cup.id });
    expect(wrong.statusCode).toBe(404);
    const soldOut = await variantOf('DD-L');
    const none = await a.call('POST', `/api/wishlist/${ids.dongding}/cart`, { variantId: soldOut.id });
    expect(none.statusCode).toBe(409);
    expect((await a.call('GET', '/api/wishlist/ids')).json().productIds).toEqual([ids.dongding]);
    expect((await a.call('GET', '/api/cart')).json().lines).toEqual([]);

    const small = await variantOf('DD-S');
    const moved = await a.call('POST', `/api/wishlist/${ids.dongding}/cart`, { variantId: small.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().lines.map((l: { sku: string; quantity: number }) => [l.sku, l.quantity])).toEqual([
      ['DD-S', 1],
    ]);
    expect((await a.call('GET', '/api/wishlist/ids')).json().productIds).toEqual([]);
  });
});
