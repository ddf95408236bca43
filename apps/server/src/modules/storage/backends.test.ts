import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStore, s3Store, type ObjectStore } from './backends.ts';

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function contract(name: string, make: () => Promise<{ store: ObjectStore; close(): Promise<void> }>) {
  describe(name, () => {
    let store: ObjectStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await make());
    });
    afterAll(async () => close());
    const bytes = Buffer.from('山嵐茶事：一壺好茶。'.repeat(50));

    it('stores, reads back whole and in ranges, and deletes', async () => {
      await store.put('products', 'teas/烏龍/1.png', bytes, 'image/png');
      expect(Buffer.compare((await readAll(await store.read('products', 'teas/烏龍/1.png')))!, bytes)).toBe(
        0,
      );
      expect(
        Buffer.compare(
          (await readAll(await store.read('products', 'teas/烏龍/1.png', { start: 3, end: 8 })))!,
          bytes.subarray(3, 9),
        ),
      ).toBe(0);
      await store.put('products', 'teas/烏龍/1.png', Buffer.from('new'), 'image/png');
      expect((await readAll(await store.read('products', 'teas/烏龍/1.png')))!.toString()).toBe('new');
      await store.delete('products', 'teas/烏龍/1.png');
      expect(await store.read('products', 'teas/烏龍/1.png')).toBeNull();
    });

    it('answers null for a file that was never there, and deleting it is harmless', async () => {
      expect(await store.read('products', 'never.png')).toBeNull();
      await expect(store.delete('products', 'never.png')).resolves.toBeUndefined();
    });

    it('keeps buckets apart', async () => {
      await store.put('downloads', 'same-name.pdf', Buffer.from('a'), 'application/pdf');
      expect(await store.read('members', 'same-name.pdf')).toBeNull();
    });
  });
}

contract('local files', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-store-'));
  const store = localStore(dir);
  return { store, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});

describe('local files refuse to leave the storage folder', () => {
  it('even if an unchecked name slips through', async () => {
    const store = localStore(fs.mkdtempSync(path.join(os.tmpdir(), 'shop-store-')));
    await expect(store.put('products', '../../outside.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow(
      /escapes/,
    );
  });
});

// A real S3 API on loopback (s3rver), so the S3 backend is exercised over HTTP, not mocked.
contract('S3-compatible service', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: 'shop-files', configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  const store = s3Store({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'shop-files',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  return {
    store,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
