import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { BUCKETS } from './buckets.ts';
import { storeObject } from './service.ts';
import { localStore } from './backends.ts';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const ORIGIN = 'http://localhost:3000';

async function png(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#3F6B4F' } })
    .png()
    .toBuffer();
}

/**
 * A valid PNG of width × height black pixels at 1 bit each: a few kilobytes of file that decode
 * to width × height bytes or more (a decompression bomb).
 */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = zlib.deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.skipIf(!dbAvailable())(
  'file storage (/b/{bucket}/o/{path}, docs/product-rules.md#http-behaviour)',
  () => {
    let ctx: TestContext;
    let owner: string;
    let customer: string;
    let image: Buffer;
    beforeAll(async () => {
      ctx = await createTestApp();
      owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
      await setRole(ctx.database, 'owner@example.com', 'owner');
      customer = (await signIn(ctx.app, 'shopper@example.com')).cookie;
      image = await png(1600, 2000);
    });
    afterAll(async () => ctx.close());

    const upload = (
      bucket: string,
      name: string,
      body: Buffer,
      opts: { cookie?: string; headers?: Record<string, string> } = {},
    ) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/storage/b/${bucket}/o?name=${encodeURIComponent(name)}`,
        payload: body,
        headers: {
          'content-type': 'application/octet-stream',
          origin: ORIGIN,
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...opts.headers,
        },
      });
    const get = (
      bucket: string,
      encodedName: string,
      headers: Record<string, string> = {},
      alt = '?alt=media',
    ) => ctx.app.inject({ method: 'GET', url: `/api/storage/b/${bucket}/o/${encodedName}${alt}`, headers });

    it('lets the owner upload an image, keeps its metadata and makes 320/640/1280 WebP copies', async () => {
      const res = await upload('products', 'teas/dong-ding/1.png', image, {
        cookie: owner,
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const meta = res.json();
      expect(meta).toMatchObject({
        bucket: 'products',
        name: 'teas/dong-ding/1.png',
        size: image.length,
        contentType: 'image/png',
        width: 1600,
        height: 2000,
        variants: [320, 640, 1280],
      });
      expect(meta.etag).toBe(`"${createHash('sha256').update(image).digest('hex')}"`);
      const info = await get('products', encodeURIComponent('teas/dong-ding/1.png'), {}, '');
      expect(info.json()).toMatchObject({ size: image.length, contentType: 'image/png' });
      for (const w of [320, 640, 1280]) {
        const copy = await get('products', encodeURIComponent(`teas/dong-ding/1.png@${w}.webp`));
        expect(copy.statusCode).toBe(200);
        expect(copy.headers['content-type']).toBe('image/webp');
        expect((await sharp(copy.rawPayload).metadata()).width).toBe(w);
      }
    });

    it('serves the bytes with ETag, Last-Modified and caching; answers 304 to conditional requests', async () => {
      const res = await get('products', 'teas/dong-ding/1.png');
      expect(res.statusCode).toBe(200);
      expect(Buffer.compare(res.rawPayload, image)).toBe(0);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const etag = String(res.headers.etag);
      expect((await get('products', 'teas/dong-ding/1.png', { 'if-none-match': etag })).statusCode).toBe(304);
      expect(
        (
          await get('products', 'teas/dong-ding/1.png', {
            'if-modified-since': String(res.headers['last-modified']),
          })
        ).statusCode,
      ).toBe(304);
      expect((await get('products', 'teas/dong-ding/1.png', { 'if-none-match': '"other"' })).statusCode).toBe(
        200,
      );
    });

    it('answers Range requests with 206 and the exact bytes, and 416 when out of range', async () => {
      const part = await get('products', 'teas/dong-ding/1.png', { range: 'bytes=10-19' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-19/${image.length}`);
      expect(Buffer.compare(part.rawPayload, image.subarray(10, 20))).toBe(0);
      const tail = await get('products', 'teas/dong-ding/1.png', { range: 'bytes=-5' });
      expect(Buffer.compare(tail.rawPayload, image.subarray(image.length - 5))).toBe(0);
      const open = await get('products', 'teas/dong-ding/1.png', { range: `bytes=${image.length - 3}-` });
      expect(open.rawPayload.length).toBe(3);
      const bad = await get('products', 'teas/dong-ding/1.png', { range: `bytes=${image.length}-` });
      expect(bad.statusCode).toBe(416);
      expect(bad.headers['content-range']).toBe(`bytes */${image.length}`);
      const stale = await get('products', 'teas/dong-ding/1.png', {
        range: 'bytes=0-9',
        'if-range': '"changed"',
      });
      expect(stale.statusCode).toBe(200);
    });

    describe('error codes', () => {
      it('object-not-found for a missing file', async () => {
        const res = await get('products', 'no/such/file.png');
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('object-not-found');
      });

      it('bucket-not-found for an unknown bucket, on read, upload and delete', async () => {
        expect((await get('secrets', 'x.png')).json().error.code).toBe('bucket-not-found');
        expect((await upload('secrets', 'x.png', image, { cookie: owner })).json().error.code).toBe(
          'bucket-not-found',
        );
        const del = await ctx.app.inject({
          method: 'DELETE',
          url: '/api/storage/b/secrets/o/x.png',
          headers: { cookie: owner, origin: ORIGIN },
        });
        expect(del.json().error.code).toBe('bucket-not-found');
      });

      it('unauthenticated: uploads without a session, and the members-only bucket read without one', async () => {
        const res = await upload('products', 'a.png', image);
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('unauthenticated');
        await upload('members', 'guides/brewing.png', image, { cookie: owner });
        const anon = await get('members', encodeURIComponent('guides/brewing.png'));
        expect(anon.statusCode).toBe(401);
        expect(anon.json().error.code).toBe('unauthenticated');
        const member = await get('members', encodeURIComponent('guides/brewing.png'), { cookie: customer });
        expect(member.statusCode).toBe(200);
        expect(member.headers['cache-control']).toBe('private, no-cache');
      });

      it("refuses an upload without a session, a shopper's or one declared over the bucket limit before reading its body", async () => {
        const origin = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
        const declared = 25 * 1024 * 1024;
        /**
         * Declares a 25 MB body, sends only its first megabyte, then waits: an answer that needs
         * the whole body never comes, a refusal made before reading it arrives at once.
         */
        const startUpload = (bucket: string, cookie?: string) =>
          new Promise<{ status: number | null; body: string }>((resolve) => {
            const req = http.request(`${origin}/api/storage/b/${bucket}/o?name=big.png`, {
              method: 'POST',
              headers: {
                'content-type': 'application/octet-stream',
                'content-length': declared,
                origin: ORIGIN,
                ...(cookie ? { cookie } : {}),
              },
            });
            const timer = setTimeout(() => {
              req.destroy();
              resolve({ status: null, body: 'no answer before the body was sent' });
            }, 3000);
            req.on('error', () => undefined);
            req.on('response', (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (c: string) => (body += c));
              res.on('end', () => {
                clearTimeout(timer);
                req.destroy();
                resolve({ status: res.statusCode ?? null, body });
              });
            });
            req.write(Buffer.alloc(1024 * 1024));
          });
        const anonymous = await startUpload('products');
        expect(anonymous.status, anonymous.body).toBe(401);
        expect(JSON.parse(anonymous.body).error.code).toBe('unauthenticated');
        const shopper = await startUpload('products', customer);
        expect(shopper.status, shopper.body).toBe(403);
        expect(JSON.parse(shopper.body).error.code).toBe('unauthorized');
        const tooBig = await startUpload('products', owner);
        expect(tooBig.status, tooBig.body).toBe(413);
        expect(JSON.parse(tooBig.body).error).toEqual({
          code: 'quota-exceeded',
          message: '檔案不能超過 10 MB。',
        });
        expect((await get('products', 'big.png', {}, '')).statusCode).toBe(404);
      });

      it('unauthorized: a shopper may not upload or delete', async () => {
        const up = await upload('products', 'mine.png', image, { cookie: customer });
        expect(up.statusCode).toBe(403);
        expect(up.json().error.code).toBe('unauthorized');
        const del = await ctx.app.inject({
          method: 'DELETE',
          url: `/api/storage/b/products/o/${encodeURIComponent('teas/dong-ding/1.png')}`,
          headers: { cookie: customer, origin: ORIGIN },
        });
        expect(del.json().error.code).toBe('unauthorized');
      });

      it('unauthorized: each console role writes only the buckets its permissions cover', async () => {
        const staff = (await signIn(ctx.app, 'staff@example.com')).cookie;
        await setRole(ctx.database, 'staff@example.com', 'staff');
        const viewer = (await signIn(ctx.app, 'viewer@example.com')).cookie;
        await setRole(ctx.database, 'viewer@example.com', 'viewer');
        // staff edit content but not products
        expect((await upload('content', 'pages/staff.png', image, { cookie: staff })).statusCode).toBe(201);
        const product = await upload('products', 'staff.png', image, { cookie: staff });
        expect(product.statusCode).toBe(403);
        expect(product.json().error.code).toBe('unauthorized');
        expect((await get('products', 'staff.png')).statusCode).toBe(404);
        // a viewer only reads
        for (const bucket of ['products', 'content', 'downloads']) {
          expect((await upload(bucket, 'viewer.png', image, { cookie: viewer })).json().error.code).toBe(
            'unauthorized',
          );
        }
        const del = await ctx.app.inject({
          method: 'DELETE',
          url: `/api/storage/b/content/o/${encodeURIComponent('pages/staff.png')}`,
          headers: { cookie: viewer, origin: ORIGIN },
        });
        expect(del.json().error.code).toBe('unauthorized');
        expect((await get('content', encodeURIComponent('pages/staff.png'))).statusCode).toBe(200);
      });

      it('quota-exceeded: a file over the bucket limit, and a bucket that is full', async () => {
        const big = Buffer.concat([image, Buffer.alloc(BUCKETS.products!.maxBytes)]);
        const res = await upload('products', 'huge.png', big, { cookie: owner });
        expect(res.statusCode).toBe(413);
        expect(res.json().error.code).toBe('quota-exceeded');
        const tooBigForServer = Buffer.alloc(31 * 1024 * 1024);
        const over = await upload('downloads', 'huge.pdf', tooBigForServer, { cookie: owner });
        expect(over.statusCode).toBe(413);
        expect(over.json().error.code).toBe('quota-exceeded');
        const store = localStore(fs.mkdtempSync(path.join(os.tmpdir(), 'shop-quota-')));
        const tinyBucket = { ...BUCKETS.products!, quotaBytes: image.length + 10 };
        const full = await storeObject(
          { db: ctx.database.db, store },
          tinyBucket,
          'products',
          'full.png',
          image,
          { uploadedBy: null },
        ).catch((e: unknown) => e);
        expect(full).toMatchObject({ code: 'quota-exceeded', statusCode: 507 });
      });

      it('invalid-argument: path traversal, absolute paths and other bad names change nothing', async () => {
        const names = [
          '../escape.png',
          'a/../../etc/passwd',
          '/absolute.png',
          'a\\b.png',
          'a//b.png',
          './a.png',
          `${'長'.repeat(257)}.png`,
          Array.from({ length: 33 }, () => 'x').join('/'),
          'nul\u0000.png',
          'x.png@640.webp',
        ];
        for (const name of names) {
          const res = await upload('products', name, image, { cookie: owner });
          expect(res.statusCode, name).toBe(400);
          expect(res.json().error.code, name).toBe('invalid-argument');
        }
        // Dot segments in the URL itself are resolved before routing: the request never reaches a file.
        const dots = await get('products', '%2E%2E/%2E%2E/etc/passwd');
        expect([400, 404]).toContain(dots.statusCode);
        expect(dots.headers['content-type']).toContain('application/json');
      });

      it('invalid-url: a malformed object path in a read or delete URL is refused before anything is looked up', async () => {
        const paths = {
          'encoded traversal': '..%2F..%2Fetc%2Fpasswd',
          'traversal inside': 'teas/..%2F..%2F..%2Fpackage.json',
          'dot segment': 'teas%2F.%2F1.png',
          'bad percent-encoding': 'teas/%E0%A4%A.png',
          'not a percent escape': 'teas/%zz.png',
          'half a UTF-8 character': 'teas/%E8%8C.png',
          'NUL byte': 'teas/a%00b.png',
          'control character': 'teas/a%0Ab.png',
          backslash: 'teas%5C1.png',
          'empty segment': 'teas%2F%2F1.png',
          empty: '',
          'over 768 bytes': encodeURIComponent('長'.repeat(257)),
          'over 32 levels': Array.from({ length: 33 }, () => 'x').join('%2F'),
          'over 4,096 characters': 'x'.repeat(5000),
        };
        for (const [why, encoded] of Object.entries(paths)) {
          for (const method of ['GET', 'DELETE'] as const) {
            const res = await ctx.app.inject({
              method,
              url: `/api/storage/b/products/o/${encoded}?alt=media`,
              headers: { cookie: owner, origin: ORIGIN },
            });
            expect(res.statusCode, `${method} ${why}`).toBe(400);
            expect(res.headers['content-type'], `${method} ${why}`).toContain('application/json');
            const error = res.json().error;
            expect(error.code, `${method} ${why}`).toBe('invalid-url');
            expect(error.message, `${method} ${why}`).toMatch(/^檔案網址不正確：.+。$/);
          }
        }
        // A well-formed path to a file that does not exist is still object-not-found, up to 768 bytes.
        expect((await get('products', 'teas%2Fno-such.png')).json().error.code).toBe('object-not-found');
        expect((await get('products', encodeURIComponent(`${'長'.repeat(254)}.png`))).json().error.code).toBe(
          'object-not-found',
        );
        // Any other URL the router cannot decode answers in the same error shape.
        const elsewhere = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/%E0%A4%A' });
        expect(elsewhere.statusCode).toBe(400);
        expect(elsewhere.json()).toEqual({
          error: { code: 'invalid-url', message: '網址不正確：含有無法解讀的 % 編碼。' },
        });
      });

      it('invalid-argument: a picture whose data is cut off is refused and nothing is stored', async () => {
        const noisy = await sharp({
          create: {
            width: 800,
            height: 600,
            channels: 3,
            background: '#808080',
            noise: { type: 'gaussian', mean: 128, sigma: 40 },
          },
        })
          .png()
          .toBuffer();
        const truncated = noisy.subarray(0, Math.floor(noisy.length / 2));
        for (const [bucket, name] of [
          ['products', 'broken/half.png'],
          ['downloads', 'broken/half.png'],
        ] as const) {
          const res = await upload(bucket, name, truncated, { cookie: owner });
          expect(res.statusCode, `${bucket}: ${res.body}`).toBe(400);
          expect(res.json().error).toMatchObject({
            code: 'invalid-argument',
            message: '圖片檔案無法讀取，可能已經損毀。',
          });
          expect((await get(bucket, encodeURIComponent(name), {}, '')).statusCode).toBe(404);
        }
        expect(
          (await get('products', encodeURIComponent('broken/half.png@320.webp'), {}, '')).statusCode,
        ).toBe(404);
      });

      it('invalid-argument: a decompression bomb (a few KB declaring 100 or 400 million pixels) is refused and nothing is stored', async () => {
        for (const [width, height] of [
          [10_000, 10_000],
          [20_000, 20_000],
        ] as const) {
          const bomb = pngBomb(width, height);
          expect(bomb.length).toBeLessThan(100 * 1024);
          for (const bucket of ['products', 'downloads']) {
            const name = `bombs/${width}.png`;
            const res = await upload(bucket, name, bomb, { cookie: owner });
            expect(res.statusCode, `${bucket} ${width} × ${height}: ${res.body}`).toBe(400);
            expect(res.json().error).toEqual({
              code: 'invalid-argument',
              message: `圖片太大（${width} × ${height} 像素），請縮小到 5,000 萬像素以內（例如 8000 × 6000）再上傳。`,
            });
            expect((await get(bucket, encodeURIComponent(name), {}, '')).statusCode).toBe(404);
            expect((await get(bucket, encodeURIComponent(`${name}@320.webp`), {}, '')).statusCode).toBe(404);
          }
        }
      });

      it('invalid-argument: the type is sniffed from the bytes, not the name or the header', async () => {
        const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
        const res = await upload('products', 'evil.png', svg, {
          cookie: owner,
          headers: { 'content-type': 'image/png' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('invalid-argument');
        expect(res.json().error.message).toContain('JPEG');
        const pdf = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF');
        expect((await upload('products', 'catalogue.pdf', pdf, { cookie: owner })).statusCode).toBe(400);
        const ok = await upload('downloads', 'catalogue.pdf', pdf, { cookie: owner });
        expect(ok.json().contentType).toBe('application/pdf');
        const served = await get('downloads', 'catalogue.pdf');
        expect(served.headers['content-disposition']).toBe("inline; filename*=UTF-8''catalogue.pdf");
        expect(
          (await upload('products', 'empty.png', Buffer.alloc(0), { cookie: owner })).json().error.code,
        ).toBe('invalid-argument');
      });

      it('invalid-checksum when the bytes do not match the SHA-256 the client sent', async () => {
        const wrong = await upload('products', 'check.png', image, {
          cookie: owner,
          headers: { 'x-content-sha256': 'a'.repeat(64) },
        });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().error.code).toBe('invalid-checksum');
        expect((await get('products', 'check.png')).statusCode).toBe(404);
        const right = await upload('products', 'check.png', image, {
          cookie: owner,
          headers: { 'x-content-sha256': createHash('sha256').update(image).digest('hex') },
        });
        expect(right.statusCode).toBe(201);
      });
    });

    it('deletes a file with its copies', async () => {
      await upload('products', 'gone.png', await png(800, 1000), { cookie: owner });
      const del = await ctx.app.inject({
        method: 'DELETE',
        url: '/api/storage/b/products/o/gone.png',
        headers: { cookie: owner, origin: ORIGIN },
      });
      expect(del.statusCode).toBe(204);
      expect((await get('products', 'gone.png')).json().error.code).toBe('object-not-found');
      expect((await get('products', encodeURIComponent('gone.png@640.webp'))).json().error.code).toBe(
        'object-not-found',
      );
      const again = await ctx.app.inject({
        method: 'DELETE',
        url: '/api/storage/b/products/o/gone.png',
        headers: { cookie: owner, origin: ORIGIN },
      });
      expect(again.json().error.code).toBe('object-not-found');
    });
  },
);
