import { describe, expect, it, vi } from 'vitest';
import { MAX_UPLOAD_RETRY_MS, StorageError, uploadFile, type UploadDeps } from './upload.ts';
import { backoffDelay } from '@shop/shared/limits';

const ok = { status: 201, body: JSON.stringify({ bucket: 'products', name: 'a.png', size: 3 }) };

function fakeDeps(answers: Array<{ status: number; body: string } | 'network'>) {
  let t = 0;
  const sleeps: number[] = [];
  const deps: UploadDeps = {
    send: vi.fn(async (_url, file, _headers, onProgress) => {
      onProgress(file.size / 2);
      const next = answers.shift() ?? ok;
      if (next === 'network') throw new Error('network');
      return next;
    }),
    sha256: async () => 'abc123',
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    now: () => t,
  };
  return { deps, sleeps };
}

const file = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });

describe('client uploads', () => {
  it('sends the bytes with their SHA-256 and reports progress to 100 %', async () => {
    const { deps } = fakeDeps([ok]);
    const progress: number[] = [];
    const result = await uploadFile(
      { bucket: 'products', name: 'teas/烏龍.png', file, onProgress: (l, t) => progress.push(l / t) },
      deps,
    );
    expect(result.name).toBe('a.png');
    expect(deps.send).toHaveBeenCalledWith(
      '/api/storage/b/products/o?name=teas%2F%E7%83%8F%E9%BE%8D.png',
      file,
      { 'content-type': 'image/png', 'x-content-sha256': 'abc123' },
      expect.any(Function),
      undefined,
    );
    expect(progress.at(-1)).toBe(1);
  });

  it('retries network failures and retryable statuses with 1 s × 1.5 backoff', async () => {
    const { deps, sleeps } = fakeDeps(['network', { status: 503, body: '' }, { status: 429, body: '' }, ok]);
    await uploadFile({ bucket: 'products', name: 'a.png', file }, deps);
    expect(sleeps).toEqual([1000, 1500, 2250]);
  });

  it('caps each wait at 60 s and gives up after 10 minutes with retry-limit-exceeded', async () => {
    const { deps, sleeps } = fakeDeps(Array.from({ length: 100 }, () => 'network' as const));
    const error = await uploadFile({ bucket: 'products', name: 'a.png', file }, deps).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('retry-limit-exceeded');
    expect(Math.max(...sleeps)).toBe(60_000);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_UPLOAD_RETRY_MS);
    expect(backoffDelay(30)).toBe(60_000);
  });

  it('does not retry a refusal, and passes the server code on', async () => {
    const { deps } = fakeDeps([
      {
        status: 403,
        body: JSON.stringify({ error: { code: 'unauthorized', message: '您沒有權限存取這個檔案。' } }),
      },
    ]);
    await expect(uploadFile({ bucket: 'products', name: 'a.png', file }, deps)).rejects.toMatchObject({
      code: 'unauthorized',
      status: 403,
      message: '您沒有權限存取這個檔案。',
    });
    expect(deps.send).toHaveBeenCalledTimes(1);
  });

  it('stops with canceled when the user cancels', async () => {
    const { deps } = fakeDeps([]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      uploadFile({ bucket: 'products', name: 'a.png', file, signal: controller.signal }, deps),
    ).rejects.toMatchObject({ code: 'canceled' });
  });
});
