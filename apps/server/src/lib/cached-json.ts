import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedBody, ResponseCache } from './response-cache.ts';

/**
 * Answers from the in-process cache with a strong ETag and `no-cache`, so a repeat request gets
 * 304 without the body and the browser always revalidates.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, { json, etag }: CachedBody) {
  reply.header('etag', etag).header('cache-control', 'public, no-cache');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(json);
}

export function cachedJson(cache: ResponseCache) {
  return (request: FastifyRequest, reply: FastifyReply, load: () => Promise<unknown>) => cache.get(request.url, load).then((body) => sendCached(request, reply, body));
}
