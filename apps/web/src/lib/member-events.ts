import { backoffDelay } from './backoff.ts';

export interface MemberEvent {
  type: string;
  data: Record<string, unknown>;
}

const TYPES = new Set(['order.updated', 'membership.updated', 'cart.updated']);
/** A Retry-After longer than this is taken as this: live updates should come back within minutes. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Listens to the member's event stream (/api/events). When the connection drops it reconnects
 * after 1 s, ×1.5 each time, at most 60 s (spec §9); a working connection resets the wait.
 *
 * Read through fetch rather than EventSource, which hides the answer's status: a stream the server
 * refuses for load (429) waits at least its Retry-After, and one refused because the session is
 * over (401, 403) stops, since the member is signed out and knocking again cannot help.
 */
export function connectMemberEvents(onEvent: (event: MemberEvent) => void, onReconnect?: () => void): () => void {
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let controller: AbortController | null = null;

  const later = (atLeastMs = 0) => {
    if (stopped) return;
    timer = setTimeout(() => void open(), Math.max(atLeastMs, backoffDelay(attempt++)));
  };

  const dispatch = (type: string, data: string) => {
    if (type === 'ready') {
      // Anything missed while disconnected is fetched again.
      if (attempt > 0) onReconnect?.();
      attempt = 0;
      return;
    }
    if (!TYPES.has(type)) return;
    try {
      onEvent({ type, data: JSON.parse(data) as Record<string, unknown> });
    } catch {
      // A malformed message: ignore it.
    }
  };

  const open = async () => {
    controller = new AbortController();
    try {
      const res = await fetch('/api/events', {
        headers: { accept: 'text/event-stream' },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (res.status === 401 || res.status === 403) return;
      if (res.status !== 200 || !res.body) {
        void res.body?.cancel();
        later(retryAfterMs(res.headers.get('retry-after')));
        return;
      }
      await readServerSentEvents(res.body, dispatch);
    } catch {
      // The network dropped, or stop() aborted the request.
    }
    later();
  };

  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    controller?.abort();
  };
}

/** Retry-After in seconds or as an HTTP date, in milliseconds (0 when absent or unreadable). */
function retryAfterMs(header: string | null): number {
  if (!header) return 0;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : 0;
}

/**
 * Reads `event:` / `data:` blocks until the stream ends; comments (heartbeats) and `retry:` are
 * skipped. Our server ends lines with a bare newline.
 */
async function readServerSentEvents(body: ReadableStream<Uint8Array>, dispatch: (type: string, data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) dispatch(type, data.join('\n'));
    }
  }
}
