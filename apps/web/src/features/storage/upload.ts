import { isRetryableStatus } from '@shop/shared/http-policy';
import { objectUrl, STORAGE_PREFIX, type StorageObjectMetadata } from '@shop/shared/storage-paths';
import { backoffDelay, STORAGE_RETRY_LIMIT_MS } from '@shop/shared/limits';

/** Uploads give up after 10 minutes of retrying (other storage operations after 2: read-retry.ts; docs/product-rules.md). */
export const MAX_UPLOAD_RETRY_MS = STORAGE_RETRY_LIMIT_MS.upload;

export type UploadedObject = StorageObjectMetadata;

/** Storage error codes as the client sees them (docs/product-rules.md#error-codes). */
export class StorageError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

const CLIENT_MESSAGES: Record<string, string> = {
  canceled: '已取消上傳。',
  'retry-limit-exceeded': '網路不穩，重試多次仍無法完成，請稍後再試。',
  unknown: '上傳失敗，請稍後再試。',
};

export interface UploadRequest {
  bucket: string;
  name: string;
  file: Blob;
  onProgress?(loaded: number, total: number): void;
  signal?: AbortSignal;
}

/** The pieces that touch the outside world, replaceable in tests. */
export interface UploadDeps {
  send(
    url: string,
    file: Blob,
    headers: Record<string, string>,
    onProgress: (loaded: number) => void,
    signal?: AbortSignal,
  ): Promise<{ status: number; body: string }>;
  sha256(file: Blob): Promise<string>;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  now(): number;
}

/**
 * Uploads one file to the storage service with a progress callback. Network failures and
 * retryable statuses are retried with the spec's backoff for at most 10 minutes; the server
 * checks the SHA-256 sent along (invalid-checksum if the bytes were damaged on the way).
 */
export async function uploadFile(
  request: UploadRequest,
  deps: UploadDeps = browserDeps(),
): Promise<UploadedObject> {
  const url = `${STORAGE_PREFIX}/b/${encodeURIComponent(request.bucket)}/o?name=${encodeURIComponent(request.name)}`;
  const headers = {
    'content-type': request.file.type || 'application/octet-stream',
    'x-content-sha256': await deps.sha256(request.file),
  };
  const started = deps.now();
  for (let attempt = 0; ; attempt++) {
    if (request.signal?.aborted) throw new StorageError('canceled', CLIENT_MESSAGES.canceled!);
    let outcome: { status: number; body: string } | null = null;
    try {
      outcome = await deps.send(
        url,
        request.file,
        headers,
        (loaded) => request.onProgress?.(loaded, request.file.size),
        request.signal,
      );
    } catch (error) {
      if (request.signal?.aborted || (error instanceof DOMException && error.name === 'AbortError'))
        throw new StorageError('canceled', CLIENT_MESSAGES.canceled!);
      // No answer: a network failure; retried below.
    }
    if (outcome && outcome.status >= 200 && outcome.status < 300) {
      request.onProgress?.(request.file.size, request.file.size);
      return JSON.parse(outcome.body) as UploadedObject;
    }
    if (outcome && !isRetryableStatus(outcome.status)) throw toStorageError(outcome.status, outcome.body);
    const delay = backoffDelay(attempt);
    if (deps.now() - started + delay > MAX_UPLOAD_RETRY_MS)
      throw new StorageError(
        'retry-limit-exceeded',
        CLIENT_MESSAGES['retry-limit-exceeded']!,
        outcome?.status ?? 0,
      );
    await deps.sleep(delay, request.signal);
  }
}

function toStorageError(status: number, body: string): StorageError {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string; message?: string } };
    if (parsed.error?.code)
      return new StorageError(parsed.error.code, parsed.error.message ?? CLIENT_MESSAGES.unknown!, status);
  } catch {
    // not JSON
  }
  return new StorageError('unknown', CLIENT_MESSAGES.unknown!, status);
}

export { objectUrl };

function browserDeps(): UploadDeps {
  return {
    send: (url, file, headers, onProgress, signal) =>
      new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', url);
        xhr.withCredentials = true;
        for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
        xhr.upload.onprogress = (e) => onProgress(e.loaded);
        xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
        xhr.onerror = () => reject(new Error('network'));
        xhr.ontimeout = () => reject(new Error('timeout'));
        xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
        signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(file);
      }),
    async sha256(file) {
      const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
      return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    },
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(new DOMException('aborted', 'AbortError'));
          },
          { once: true },
        );
      }),
    now: () => Date.now(),
  };
}
