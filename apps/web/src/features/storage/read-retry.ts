import { isRetryableStatus } from '@shop/shared/http-policy';
import { backoffDelay, STORAGE_RETRY_LIMIT_MS } from '@shop/shared/limits';
import { STORAGE_PREFIX } from '@shop/shared/storage-paths';

/** The pieces that touch the outside world, replaceable in tests. */
export interface ReadRetryDeps {
  now(): number;
  later(fn: () => void, ms: number): void;
  /** The status the storage answers for `url` now (a HEAD request), or null when nothing answered. */
  probe(url: string): Promise<number | null>;
}

interface Attempt {
  readonly url: string;
  readonly started: number;
  count: number;
}

const attempts = new WeakMap<HTMLImageElement, Attempt>();

function storageUrl(img: HTMLImageElement): string | null {
  const raw = img.currentSrc || img.src;
  if (!raw) return null;
  const url = new URL(raw, img.ownerDocument.baseURI);
  return url.origin === new URL(img.ownerDocument.baseURI).origin &&
    url.pathname.startsWith(`${STORAGE_PREFIX}/`)
    ? url.href
    : null;
}

/**
 * Storage reads are retried for up to 2 minutes (docs/product-rules.md), with the 1 s × 1.5 backoff capped at
 * 60 s. The shop reads stored files only through `<img>` (pictures of products, people and
 * content), which the browser loads on its own and never retries: a picture that failed while the
 * storage or the database was away for a moment stayed broken until the page was reloaded. This
 * listens for pictures from the storage that fail to load; after each wait it asks the storage
 * (a HEAD request) and, when it answers again, loads the picture once more. A status that will not
 * change (404 and other non-retryable ones) ends the retries at once; so does a picture that left
 * the page or now shows another file.
 */
export function installStorageReadRetry(doc: Document = document, deps: ReadRetryDeps = browserDeps()): void {
  const retry = (img: HTMLImageElement, state: Attempt) => {
    const delay = backoffDelay(state.count);
    if (deps.now() - state.started + delay > STORAGE_RETRY_LIMIT_MS.operation) return;
    state.count += 1;
    deps.later(() => {
      if (!img.isConnected || attempts.get(img) !== state) return;
      void deps.probe(state.url).then((status) => {
        if (!img.isConnected || attempts.get(img) !== state) return;
        if (status !== null && status < 400) {
          // The same address again: the browser loads it anew, since the failed answer was not kept.
          for (const name of ['srcset', 'src']) {
            const value = img.getAttribute(name);
            if (value !== null) img.setAttribute(name, value);
          }
        } else if (status === null || isRetryableStatus(status)) {
          retry(img, state);
        }
      });
    }, delay);
  };

  doc.addEventListener(
    'error',
    (event) => {
      const img = event.target;
      if (!(img instanceof HTMLImageElement)) return;
      const url = storageUrl(img);
      if (!url) return;
      let state = attempts.get(img);
      if (!state || state.url !== url) {
        state = { url, started: deps.now(), count: 0 };
        attempts.set(img, state);
      }
      retry(img, state);
    },
    true,
  );
  doc.addEventListener(
    'load',
    (event) => {
      if (event.target instanceof HTMLImageElement) attempts.delete(event.target);
    },
    true,
  );
}

function browserDeps(): ReadRetryDeps {
  return {
    now: () => Date.now(),
    later: (fn, ms) => void setTimeout(fn, ms),
    probe: async (url) => {
      try {
        const res = await fetch(url, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
        return res.status;
      } catch {
        return null;
      }
    },
  };
}
