import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { catalogChanged } from '../catalog/service.ts';
import { addItem } from './service.ts';
import { memberCarts, type MemberCarts } from './member-carts.ts';

describe.skipIf(!dbAvailable())('members’ carts kept for server-rendered pages', () => {
  let ctx: TestContext;
  let carts: MemberCarts;
  let variant: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    const product = (
      await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/dong-ding' })
    ).json() as { variants: { id: string }[] };
    variant = product.variants[0]!.id;
    carts = memberCarts(ctx.app.db, ctx.app.events);
  });
  afterAll(async () => {
    carts.close();
    await ctx.close();
  });

  it('reads a cart once, and again after the member changes it through the cart API', async () => {
    const { cookie, uid } = await signIn(ctx.app, 'kept-cart@example.com');
    const first = await carts.get(uid);
    expect(first.cart.itemCount).toBe(0);
    // Written behind the cache's back: the kept cart still answers.
    await addItem(ctx.app.db, uid, variant, 1);
    expect((await carts.get(uid)).at).toBe(first.at);
    expect((await carts.get(uid)).cart.itemCount).toBe(0);
    // Through the API: the change is announced (cart.updated) and the cart read afresh.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/cart/items',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { variantId: variant, quantity: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect((await carts.get(uid)).cart.itemCount).toBe(3);
  });

  it('reads every cart afresh after the catalogue changes, or another instance announces a change', async () => {
    const { uid } = await signIn(ctx.app, 'kept-cart-2@example.com');
    await carts.get(uid);
    await addItem(ctx.app.db, uid, variant, 1);
    catalogChanged();
    expect((await carts.get(uid)).cart.itemCount).toBe(1);
    await addItem(ctx.app.db, uid, variant, 1);
    await ctx.app.events.publish(uid, { type: 'cart.updated', data: {} });
    expect((await carts.get(uid)).cart.itemCount).toBe(2);
  });

  it('does not keep a read that a change overtook', async () => {
    const { uid } = await signIn(ctx.app, 'kept-cart-3@example.com');
    const reading = carts.get(uid);
    carts.drop(uid);
    await reading;
    await addItem(ctx.app.db, uid, variant, 1);
    expect((await carts.get(uid)).cart.itemCount).toBe(1);
  });
});
