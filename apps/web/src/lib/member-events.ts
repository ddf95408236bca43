import { backoffDelay } from './backoff.ts';

export interface MemberEvent {
  type: string;
  data: Record<string, unknown>;
}

const TYPES = ['order.updated', 'membership.updated', 'cart.updated'] as const;
/** A Retry-After longer than this is taken as this: live updates should come back within minutes. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Listens to the member's event stream (/api/events). When the connection drops it reconnects
 * after 1 s, ×1.5 each time, at most 60 s (spec §9); a working connection resets the wait.
 *
 * EventSource hides why a stream was refused, so when one fails before it ever opened, the client
 * asks (`?probe=1`, which answers with a status and never opens a stream): over the server's caps
 * (429) it waits at least the Retry-After; with the session over (401, 403) it stops, since the
 * member is signed out and knocking again cannot help.
 */
export function connectMemberEvents(onEvent: (event: MemberEvent) => void, onReconnect?: () => void): () => void {
  let source: EventSource | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const probe = new AbortController();

  const later = (atLeastMs = 0) => {
    if (stopped) return;
    timer = setTimeout(open, Math.max(atLeastMs, backoffDelay(attempt++)));
  };

  const open = () => {
    let opened = false;
    source = new EventSource('/api/events');
    source.addEventListener('ready', () => {
      opened = true;
      // Anything missed while disconnected is fetched again.
      if (attempt > 0) onReconnect?.();
      attempt = 0;
    });
    for (const type of TYPES) {
      source.addEventListener(type, (e) => {
        try {
          onEvent({ type, data: JSON.parse((e as MessageEvent<string>).data) as Record<string, unknown> });
        } catch {
          // A malformed message: ignore it.
        }
      });
    }
    source.onerror = () => {
      source?.close();
      if (stopped) return;
      if (opened) return later();
      void whyRefused(probe.signal).then((answer) => {
        if (answer.signedOut) return;
        later(answer.retryAfterMs);
      });
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    probe.abort();
    source?.close();
  };
}

/** Asks the server why a stream could not open; a failed question counts as a dropped network. */
async function whyRefused(signal: AbortSignal): Promise<{ signedOut: boolean; retryAfterMs: number }> {
  try {
    const res = await fetch('/api/events?probe=1', { credentials: 'same-origin', cache: 'no-store', signal });
    return { signedOut: res.status === 401 || res.status === 403, retryAfterMs: res.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : 0 };
  } catch {
    return { signedOut: false, retryAfterMs: 0 };
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds (0 when absent or unreadable). */
function retryAfterMs(header: string | null): number {
  if (!header) return 0;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : 0;
}
