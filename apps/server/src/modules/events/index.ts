import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';

const HEARTBEAT_MS = 25_000;

/**
 * GET /api/events: a server-sent events stream for the signed-in member. Order and shipment
 * changes arrive as `order.updated`; the client reconnects with backoff (spec §9).
 */
const events: FastifyPluginAsync = async (app) => {
  const open = new Set<ServerResponse>();
  // Streams never end by themselves: close them first so shutdown does not wait on them.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/api/events', { onRequest: app.requireUser }, async (request, reply) => {
    const userId = request.auth!.user.id;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\nevent: ready\ndata: {}\n\n`);
    open.add(res);
    const unsubscribe = app.events.subscribe(userId, (event) => {
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    request.raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
  });
};

export default events;
