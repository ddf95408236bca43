import type { FastifyPluginAsync } from 'fastify';
import { isStaffRole } from '@shop/shared/admin';
import { LIVE_UPDATES } from '@shop/shared/limits';
import { TooManyRequestsError } from '../../lib/errors.ts';
import { EVERYONE, type MemberEvent } from '../../plugins/events.ts';
import { liveSessionIds } from './service.ts';

/** Within the spec's 5–30 s long-polling window; the client takes 30 s of silence for a dead stream. */
const HEARTBEAT_MS = LIVE_UPDATES.heartbeatMs;
/** A refused stream is worth trying again after this long (the client backs off from there). */
const RETRY_AFTER_SECONDS = 30;

/** How many live-update streams may be open at once; the numbers are explained in docs/decisions/006. */
export interface StreamLimits {
  /** Per signed-in browser (session): one stream per open tab. */
  readonly perSession: number;
  /** Per member, over all their browsers. */
  readonly perUser: number;
  /** On this server instance. */
  readonly total: number;
  /** How often every open stream's session is checked again, to catch an ending nobody announced. */
  readonly recheckMs: number;
}

export const STREAM_LIMITS: StreamLimits = { perSession: 5, perUser: 10, total: 2000, recheckMs: 60_000 };

interface Stream {
  readonly userId: string;
  readonly sessionId: string;
  end(): void;
}

/**
 * GET /api/events: a server-sent events stream for the signed-in member. Order and shipment
 * changes arrive as `order.updated`, and maintenance mode switched on or off as `site.maintenance`
 * (shoppers only); the client reconnects with backoff (docs/product-rules.md#limits-and-timings).
 *
 * Streams are capped per session, per member and per server (429 with Retry-After over the cap;
 * `?probe=1` answers that status, or 204, without opening a stream, since a browser's EventSource
 * cannot read why it was refused), and a stream lives only as long as its session: `app.sessionsEnded(userId)` (sign-out, password
 * reset or change, account disabled) makes every instance check that member's streams at once, and
 * a periodic check catches any other ending (expiry, a revocation nobody announced).
 */
const events: FastifyPluginAsync<{ limits?: Partial<StreamLimits> }> = async (app, options) => {
  const limits: StreamLimits = { ...STREAM_LIMITS, ...options.limits };
  const open = new Set<Stream>();
  const byUser = new Map<string, Set<Stream>>();

  /** Ends the streams whose session is no longer live. */
  async function recheck(streams: readonly Stream[]): Promise<void> {
    if (streams.length === 0) return;
    try {
      const live = await liveSessionIds(app.db, [...new Set(streams.map((s) => s.sessionId))], new Date());
      for (const stream of streams) if (!live.has(stream.sessionId)) stream.end();
    } catch (error) {
      app.log.warn(
        { err: error },
        'live-update streams: session check failed; trying again at the next check',
      );
    }
  }

  // One notice reaches every stream of the member; check them together, once.
  const pending = new Set<string>();
  const recheckUserSoon = (userId: string) => {
    if (pending.size === 0) {
      setImmediate(() => {
        const users = [...pending];
        pending.clear();
        void recheck(users.flatMap((id) => [...(byUser.get(id) ?? [])]));
      });
    }
    pending.add(userId);
  };

  const sweep = setInterval(() => void recheck([...open]), limits.recheckMs);
  sweep.unref();
  // Streams never end by themselves: close them first so shutdown does not wait on them.
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    for (const stream of open) stream.end();
  });
  // Events from other instances may have been lost while Redis was away: end every stream, so each
  // page reconnects and fetches what it shows again (the web client refetches on reconnect).
  const stopGapWatch = app.events.onGap(() => {
    for (const stream of open) stream.end();
  });
  app.addHook('onClose', async () => stopGapWatch());

  app.get('/api/events', { onRequest: app.requireUser }, async (request, reply) => {
    const { user, sessionId } = request.auth!;
    const userId = user.id;
    const mine = byUser.get(userId) ?? new Set<Stream>();
    if (open.size >= limits.total) {
      throw new TooManyRequestsError(
        RETRY_AFTER_SECONDS,
        '目前連線的人數較多，即時更新暫停，稍後會自動恢復。',
      );
    }
    let sameSession = 0;
    for (const stream of mine) if (stream.sessionId === sessionId) sameSession++;
    if (mine.size >= limits.perUser || sameSession >= limits.perSession) {
      throw new TooManyRequestsError(
        RETRY_AFTER_SECONDS,
        '同時開啟的頁面太多，這個分頁暫停即時更新；關閉其他分頁後會自動恢復。',
      );
    }
    if ((request.query as { probe?: string }).probe !== undefined)
      return reply.code(204).header('cache-control', 'no-store').send();

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\nevent: ready\ndata: {}\n\n`);
    const stream: Stream = { userId, sessionId, end: () => res.end() };
    open.add(stream);
    byUser.set(userId, mine.add(stream));
    const send = (event: MemberEvent) =>
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
    const unsubscribe = app.events.subscribe(userId, (event) => {
      if (event.type === 'session.ended') recheckUserSoon(userId);
      else send(event);
    });
    // News for every page: maintenance mode switched (staff keep working, so theirs is not sent).
    const staff = isStaffRole(user.role);
    const unsubscribeEveryone = app.events.subscribe(EVERYONE, (event) => {
      if (event.type === 'site.maintenance' && !staff) send(event);
    });
    // A named event, not an SSE comment: a browser's EventSource never shows comments to the page.
    const heartbeat = setInterval(() => res.write('event: heartbeat\ndata: {}\n\n'), HEARTBEAT_MS);
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      unsubscribeEveryone();
      open.delete(stream);
      mine.delete(stream);
      if (mine.size === 0 && byUser.get(userId) === mine) byUser.delete(userId);
    });
  });
};

export default events;
