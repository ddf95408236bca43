import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedBody, ResponseCache } from './response-cache.ts';

/**
 * Answers a serialised body with its strong ETag, so a repeat request gets 304 without the body.
 * By default (`no-cache`) the browser always revalidates.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  { json, etag }: CachedBody,
  cacheControl = 'public, no-cache',
) {
  reply.header('etag', etag).header('cache-control', cacheControl);
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
    return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(json);
}

export function cachedJson(cache: ResponseCache) {
  return (request: FastifyRequest, reply: FastifyReply, load: () => Promise<unknown>) =>
    cache.get(request.url, load).then((body) => sendCached(request, reply, body));
}
