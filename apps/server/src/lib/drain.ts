import net from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface DrainOptions {
  /**
   * How long idle keep-alive connections stay open after the signal, so a request a client had
   * already sent on one is read and answered instead of being cut off with a reset.
   */
  readonly idleGraceMs: number;
  /** The longest the drain waits for in-flight requests before closing anyway. */
  readonly timeoutMs: number;
}

export const DRAIN: DrainOptions = { idleGraceMs: 1000, timeoutMs: 8000 };

/**
 * Graceful shutdown of a listening server, in this order:
 * 1. stop accepting connections, but leave the open ones alone (Node's own `server.close()` would
 *    destroy idle keep-alive sockets at once, resetting a request already on its way);
 * 2. answer every request from now on with `Connection: close`, so each connection ends after its
 *    answer: requests in flight finish, and requests arriving on open connections are served;
 * 3. after the grace, once nothing is in flight, close the app: live-update streams end, the
 *    remaining idle sockets close, then the database and Redis.
 *
 * Call `track` before the server listens (it adds a hook); `drain` when the signal comes.
 */
export function gracefulDrain(app: FastifyInstance, options: DrainOptions = DRAIN) {
  let draining = false;
  const inFlight = new Set<FastifyReply>();
  app.addHook('onRequest', async (request, reply) => {
    if (draining) reply.header('connection', 'close');
    inFlight.add(reply);
    reply.raw.once('close', () => inFlight.delete(reply));
  });
  // A live-update stream (hijacked) never ends by itself: closing the app ends it.
  const busy = () => [...inFlight].filter((reply) => !reply.sent).length;

  return {
    /** Resolves when the app is closed; `still` is how many requests were cut at the time-out. */
    async drain(): Promise<{ cut: number }> {
      draining = true;
      // The listening socket only: net.Server's close, not http.Server's.
      net.Server.prototype.close.call(app.server);
      const started = Date.now();
      while (Date.now() - started < options.timeoutMs && (Date.now() - started < options.idleGraceMs || busy() > 0)) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const cut = busy();
      await app.close();
      return { cut };
    },
  };
}
