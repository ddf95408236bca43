import { backoffDelay, LIVE_UPDATES } from '@shop/shared/limits';
import { paths } from '../config/paths.ts';

export interface MemberEvent {
  type: string;
  data: Record<string, unknown>;
}

const TYPES = ['order.updated', 'membership.updated', 'cart.updated'] as const;
/** A Retry-After longer than this is taken as this: live updates should come back within minutes. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * The shop closed for maintenance: a full load of /maintenance, the server's plain page, which goes
 * back to this page when the shop opens again (as the API client does on a 503).
 */
const showMaintenance = () =>
  window.location.replace(
    `${paths.maintenance()}?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
  );

/**
 * Listens to the member's event stream (/api/events). When the connection drops it reconnects
 * after 1 s, ×1.5 each time, but never waits more than 30 s, the end of the long-polling window
 * (docs/product-rules.md); a working connection resets the wait. The server sends a heartbeat every
 * 15 s, so a stream that stays silent for 30 s is taken for dead (a network that swallows packets
 * without closing the connection) and a new one is opened.
 *
 * The owner switching maintenance mode arrives as `site.maintenance` and is handled here (see
 * below), not passed to `onEvent`.
 *
 * EventSource hides why a stream was refused, so when one fails before it ever opened, the client
 * asks (`?probe=1`, which answers with a status and never opens a stream): over the server's caps
 * (429) it waits at least the Retry-After; with the session over (401, 403) it stops, since the
 * member is signed out and knocking again cannot help.
 */
export function connectMemberEvents(
  onEvent: (event: MemberEvent) => void,
  onReconnect?: () => void,
  onMaintenance: () => void = showMaintenance,
): () => void {
  let source: EventSource | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let silence: ReturnType<typeof setTimeout> | undefined;
  const probe = new AbortController();

  const later = (atLeastMs = 0) => {
    if (stopped) return;
    timer = setTimeout(open, Math.max(atLeastMs, backoffDelay(attempt++, LIVE_UPDATES.reconnectMaxMs)));
  };

  const open = () => {
    let opened = false;
    const current = new EventSource('/api/events');
    source = current;
    // Heard from: the stream is alive for another silence period.
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        current.close();
        if (!stopped) later();
      }, LIVE_UPDATES.silenceMs);
    };
    // A connection that never answers at all counts as silent too.
    heard();
    current.addEventListener('ready', () => {
      opened = true;
      heard();
      // Anything missed while disconnected is fetched again.
      if (attempt > 0) onReconnect?.();
      attempt = 0;
    });
    current.addEventListener('heartbeat', heard);
    for (const type of TYPES) {
      current.addEventListener(type, (e) => {
        heard();
        try {
          onEvent({ type, data: JSON.parse((e as MessageEvent<string>).data) as Record<string, unknown> });
        } catch {
          // A malformed message: ignore it.
        }
      });
    }
    // The owner switched maintenance mode (docs/product-rules.md#maintenance-mode): on, the page
    // gives way to the maintenance page at once; off, everything shown is fetched again.
    current.addEventListener('site.maintenance', (e) => {
      heard();
      try {
        if ((JSON.parse((e as MessageEvent<string>).data) as { enabled?: unknown }).enabled === true)
          onMaintenance();
        else onReconnect?.();
      } catch {
        // A malformed message: ignore it.
      }
    });
    current.onerror = () => {
      clearTimeout(silence);
      current.close();
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
    clearTimeout(silence);
    probe.abort();
    source?.close();
  };
}

/** Asks the server why a stream could not open; a failed question counts as a dropped network. */
async function whyRefused(signal: AbortSignal): Promise<{ signedOut: boolean; retryAfterMs: number }> {
  try {
    const res = await fetch('/api/events?probe=1', { credentials: 'same-origin', cache: 'no-store', signal });
    return {
      signedOut: res.status === 401 || res.status === 403,
      retryAfterMs: res.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : 0,
    };
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
