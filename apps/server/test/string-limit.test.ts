import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STRING_VALUE_BYTES } from '@shop/shared/limits';
import { MAX_IMPORT_BYTES } from '@shop/shared/admin-products';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';

/**
 * A string value is capped at 10 MB (docs/product-rules.md). No request can carry one that long, because every way in
 * is capped lower; this keeps it so when one of those limits is raised.
 */
describe.skipIf(!dbAvailable())('string values stay under 10 MB', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('every request body limit that can carry text is under the cap', () => {
    expect(ctx.app.initialConfig.bodyLimit).toBeLessThanOrEqual(MAX_STRING_VALUE_BYTES);
    expect(MAX_IMPORT_BYTES).toBeLessThanOrEqual(MAX_STRING_VALUE_BYTES);
  });

  it('refuses a JSON body over the limit before reading a string out of it', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: JSON.stringify({ message: 'x'.repeat(ctx.app.initialConfig.bodyLimit!) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload-too-large');
  });
});
