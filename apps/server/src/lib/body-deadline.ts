import type { FastifyInstance } from 'fastify';
import type { ApiErrorBody } from '@shop/shared/api-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An upload (pictures, return photos, a CSV import): its body may take as long as the whole
     * request may (HttpTimeouts.requestMs, 15 minutes), not HttpTimeouts.bodyMs.
     */
    slowBody?: boolean;
  }
}

const TIMED_OUT: ApiErrorBody = {
  error: { code: 'request-timeout', message: '送出的資料太久沒有傳完，請重新送出。' },
};

/**
 * Bounds the time to receive a request's body (docs/decisions/006-security-hardening.md): Node's
 * own request time-out has to let a 30 MB upload from a slow phone finish (15 minutes), which let any
 * JSON body trickled a byte at a time hold its connection as long. Every other route's body must
 * arrive within `bodyMs`, timed from its headers; past it the answer is 408 and the connection
 * closes. Routes marked `slowBody` keep Node's longer bound.
 */
export function boundBodyTime(app: FastifyInstance, bodyMs: number): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    if (raw.complete || request.routeOptions.config?.slowBody) return;
    if (raw.headers['transfer-encoding'] === undefined && !(Number(raw.headers['content-length']) > 0))
      return;
    const timer = setTimeout(() => {
      if (raw.complete || reply.raw.headersSent) return;
      request.log.info({ url: request.url, bodyMs }, 'request body not received in time: answered 408');
      reply.raw.writeHead(408, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      reply.raw.end(JSON.stringify(TIMED_OUT), () => raw.socket?.destroy());
    }, bodyMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    reply.raw.once('close', clear);
  });
}
