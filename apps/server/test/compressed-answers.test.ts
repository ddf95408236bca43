import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedTestCatalog } from './fixtures.ts';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';

/** A catalogue answer kept for many visitors is compressed once, not on every answer (docs/decisions/046). */
describe.skipIf(!dbAvailable())('kept answers compressed once', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
  });
  afterAll(() => ctx.close());
  const ask = (encoding?: string, etag?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/catalog/products?pageSize=12',
      headers: {
        ...(encoding ? { 'accept-encoding': encoding } : {}),
        ...(etag ? { 'if-none-match': etag } : {}),
      },
    });

  it('answers brotli or gzip as asked, the same JSON as unencoded, made once for many answers', async () => {
    const plain = await ask();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const brotli = vi.spyOn(zlib, 'brotliCompressSync');
    try {
      const first = await ask('gzip, deflate, br, zstd');
      const second = await ask('gzip, deflate, br, zstd');
      expect(first.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(first.rawPayload).toString('utf8')).toBe(plain.body);
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(brotli).toHaveBeenCalledTimes(1);
      // Other bytes of the same content: a weak tag, which still revalidates.
      expect(first.headers.etag).toBe(`W/${plain.headers.etag}`);
      expect((await ask('br', first.headers.etag as string)).statusCode).toBe(304);
    } finally {
      brotli.mockRestore();
    }
    const gzip = await ask('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect((await ask('br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });
});
