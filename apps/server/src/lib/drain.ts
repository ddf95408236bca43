import net from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface DrainOptions {
  /**
   * How long idle keep-alive connections stay open after the listener closes, so a request a client
   * had already sent on one is read and answered instead of being cut off with a reset.
   */
  readonly idleGraceMs: number;
  /** The longest the drain waits for in-flight requests before closing anyway. */
  readonly timeoutMs: number;
}

export const DRAIN: DrainOptions = { idleGraceMs: 1000, timeoutMs: 8000 };

/** What `/api/health` answers from the signal on: not ready, so load balancers stop sending. */
export const SHUTTING_DOWN_BODY = { status: 'shutting-down' } as const;

/**
 * Graceful shutdown of a listening server, in this order:
 * 1. readiness first: `/api/health` answers 503 `shutting-down`, while the listener keeps accepting
 *    and serving for `graceMs` (SHUTDOWN_GRACE_SECONDS), every answer with `Connection: close`. A
 *    load balancer sees the 503 and stops sending; connections that were already on their way (in
 *    the kernel's accept queue: closing the listener would reset them, their requests sent and
 *    never run, and the client could not tell) are accepted and answered;
 * 2. stop accepting, but leave the open connections alone (Node's own `server.close()` would
 *    destroy idle keep-alive sockets at once, resetting a request already on its way);
 * 3. after the idle grace, once nothing is in flight, close the app: live-update streams end, the
 *    remaining idle sockets close, then the database and Redis.
 *
 * Call it before the server listens (it adds a hook); `drain` when the signal comes.
 */
export function gracefulDrain(app: FastifyInstance, options: DrainOptions = DRAIN) {
  let draining = false;
  const inFlight = new Set<FastifyReply>();
  app.addHook('onRequest', async (request, reply) => {
    if (draining) {
      reply.header('connection', 'close');
      if (request.url === '/api/health' || request.url.startsWith('/api/health?'))
        return reply.code(503).header('cache-control', 'no-store').send(SHUTTING_DOWN_BODY);
    }
    inFlight.add(reply);
    reply.raw.once('close', () => inFlight.delete(reply));
  });
  // A live-update stream (hijacked) never ends by itself: closing the app ends it.
  const busy = () => [...inFlight].filter((reply) => !reply.sent).length;

  return {
    /**
     * Resolves when the app is closed; `cut` is how many requests were cut at the time-out.
     * `graceMs`: how long the listener keeps accepting after readiness turned 503.
     */
    async drain(graceMs = 0): Promise<{ cut: number }> {
      draining = true;
      if (graceMs > 0) await new Promise((r) => setTimeout(r, graceMs));
      // The listening socket only: net.Server's close, not http.Server's.
      net.Server.prototype.close.call(app.server);
      const started = Date.now();
      while (
        Date.now() - started < options.timeoutMs &&
        (Date.now() - started < options.idleGraceMs || busy() > 0)
      ) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const cut = busy();
      await app.close();
      return { cut };
    },
  };
}
