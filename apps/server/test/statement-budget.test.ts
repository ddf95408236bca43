import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, type TestContext } from './helpers.ts';
import { shopper, shopWithCatalog } from './shop.ts';

/**
 * Statements a checkout quote sends to the database: each is a round trip and most of the shop's
 * CPU per request on the hot paths (docs/decisions/022). Counts, not timings, so the budget holds
 * on any machine. Queries outside a transaction go through the client drizzle keeps as `$client`
 * (PGlite's instance, or node-postgres' pool).
 */
describe.skipIf(!dbAvailable())('statements per request', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ({ ctx, variants } = await shopWithCatalog());
  });
  afterAll(async () => ctx.close());

  async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const client = (
      ctx.database.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }
    ).$client;
    const statements: string[] = [];
    const originals = new Map<string, (...args: unknown[]) => unknown>();
    for (const name of ['query', 'exec']) {
      const original = client[name];
      if (typeof original !== 'function') continue;
      originals.set(name, original);
      client[name] = function (this: unknown, ...args: unknown[]) {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
        statements.push(String(text ?? '').slice(0, 80));
        return original.apply(this, args);
      };
    }
    try {
      return { result: await work(), statements };
    } finally {
      for (const [name, original] of originals) client[name] = original;
    }
  }

  it('a quote for a member with one cart line reads the cart, the tiers with the member’s own, and no more', async () => {
    const s = await shopper(ctx.app, 'statements@example.com');
    await s.add(variants['DD-S']!, 1);
    const body = { shippingMethod: 'home', city: '南投縣', district: '鹿谷鄉' };
    await s.call('POST', '/api/checkout/quote', body); // the shipping rules and the session are cached after this one
    const { result, statements } = await counted(() => s.call('POST', '/api/checkout/quote', body));
    expect(result.statusCode, result.body).toBe(200);
    expect(statements, statements.join('\n')).toHaveLength(2);
  });
});
