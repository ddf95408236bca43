import { backoffDelay } from './backoff.ts';

export interface MemberEvent {
  type: string;
  data: Record<string, unknown>;
}

const TYPES = ['order.updated', 'membership.updated', 'cart.updated'] as const;

/**
 * Listens to the member's event stream (/api/events). When the connection drops it reconnects
 * after 1 s, ×1.5 each time, at most 60 s (spec §9); a working connection resets the wait.
 */
export function connectMemberEvents(onEvent: (event: MemberEvent) => void, onReconnect?: () => void): () => void {
  let source: EventSource | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const open = () => {
    source = new EventSource('/api/events');
    source.addEventListener('ready', () => {
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
      timer = setTimeout(open, backoffDelay(attempt++));
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
