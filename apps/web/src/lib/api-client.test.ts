import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet, apiPost, setUnauthorizedHandler } from './api-client.ts';
import { ApiError } from './api-error.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client retry policy (docs/product-rules.md#http-behaviour)', () => {
  it('retries a GET once on 503 and then succeeds', async () => {
    fetchMock
      .mockResolvedValueOnce(json(503, { error: { code: 'internal-error', message: 'x' } }))
      .mockResolvedValueOnce(json(200, { ok: 1 }));
    await expect(apiGet('/api/thing')).resolves.toEqual({ ok: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('gives up on a GET after one retry', async () => {
    fetchMock.mockImplementation(async () => json(502, {}));
    await expect(apiGet('/api/thing')).rejects.toMatchObject({ status: 502, code: 'internal-error' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('never retries a POST by default', async () => {
    fetchMock.mockImplementation(async () => json(503, {}));
    await expect(apiPost('/api/thing', { a: 1 })).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('does not retry a status outside the list', async () => {
    fetchMock.mockResolvedValue(
      json(400, {
        error: { code: 'invalid-argument', message: '資料有誤', fields: { email: '格式不正確' } },
      }),
    );
    const error = await apiGet('/api/thing').catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid-argument',
      message: '資料有誤',
      fields: { email: '格式不正確' },
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('turns a request that never got an answer into network-request-failed', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiPost('/api/thing')).rejects.toMatchObject({ code: 'network-request-failed', status: 0 });
  });

  it('calls the unauthorized handler on 401', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(json(401, { error: { code: 'unauthenticated', message: '請先登入會員。' } }));
    await expect(apiGet('/api/orders')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('api client time-outs and cancellation', () => {
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });

  it('gives up after the time-out with network-request-failed', async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    await expect(apiPost('/api/slow', {}, { timeout: 20 })).rejects.toMatchObject({
      code: 'network-request-failed',
    });
  });

  it('passes the caller\u2019s cancellation on as an abort, not as a network failure', async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const controller = new AbortController();
    const pending = apiGet('/api/thing', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends JSON bodies with the right header and reads JSON answers', async () => {
    fetchMock.mockImplementation(async () => json(200, { ok: true }));
    await expect(apiPost('/api/x', { a: 1 })).resolves.toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(init.credentials).toBe('same-origin');
  });
});
