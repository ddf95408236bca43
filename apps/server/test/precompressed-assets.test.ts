import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';

/** The build's own compressed copies are what the browser receives (docs/decisions/021). */
describe.skipIf(!dbAvailable())('assets compressed at build time', () => {
  let ctx: TestContext;
  let dist: string;
  const source = Buffer.from(`export const words = ${JSON.stringify('山嵐茶事 '.repeat(2000))};`);
  // Marked copies: if the server compressed the file itself, the answer would not be these bytes.
  const br = brotliCompressSync(Buffer.concat([source, Buffer.from('//br')]), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  });
  const gz = gzipSync(Buffer.concat([source, Buffer.from('//gz')]), { level: 9 });
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
    );
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js'), source);
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js.br'), br);
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js.gz'), gz);
    ctx = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await ctx.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  const get = (encoding?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: encoding ? { 'accept-encoding': encoding } : {},
    });

  it('sends the brotli copy as it is to a browser that takes brotli', async () => {
    const res = await get('gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(res.rawPayload, br)).toBe(0);
    expect(brotliDecompressSync(res.rawPayload).toString().endsWith('//br')).toBe(true);
  });

  it('sends the gzip copy to one that takes only gzip, and the file itself to one that takes neither', async () => {
    const zipped = await get('gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(zipped.rawPayload, gz)).toBe(0);
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(plain.rawPayload, source)).toBe(0);
  });
});
