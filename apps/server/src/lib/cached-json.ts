import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsEncoding } from './accept-encoding.ts';
import type { CachedBody, ResponseCache } from './response-cache.ts';

/** Bodies this short go as they are (the response compressor's threshold too). */
const COMPRESS_FROM_BYTES = 1024;
/** A kept body's compressed forms, made once, when a visitor who takes them first asks. */
const compressed = new WeakMap<CachedBody, { br?: Buffer; gzip?: Buffer }>();

/** The body in the best coding the request takes, made once per kept body; null: as it is. */
function encodedBody(
  request: FastifyRequest,
  body: CachedBody,
): { coding: 'br' | 'gzip'; bytes: Buffer } | null {
  if (body.json.length < COMPRESS_FROM_BYTES) return null;
  const accepts = request.headers['accept-encoding'];
  const coding = acceptsEncoding(accepts, 'br') ? 'br' : acceptsEncoding(accepts, 'gzip') ? 'gzip' : null;
  if (!coding) return null;
  let forms = compressed.get(body);
  if (!forms) compressed.set(body, (forms = {}));
  forms[coding] ??=
    coding === 'br'
      ? zlib.brotliCompressSync(body.json, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
          },
        })
      : zlib.gzipSync(body.json);
  return { coding, bytes: forms[coding] };
}

/**
 * Answers a serialised body with its strong ETag, so a repeat request gets 304 without the body.
 * By default (`no-cache`) the browser always revalidates. A body kept for many answers is
 * compressed once, not on every answer (docs/decisions/046-pages-kept-as-bytes.md).
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  body: CachedBody,
  cacheControl = 'public, no-cache',
) {
  const { json, etag } = body;
  reply.header('etag', etag).header('cache-control', cacheControl);
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
    return reply.code(304).send();
  reply.header('vary', 'accept-encoding').type('application/json; charset=utf-8');
  const encoded = encodedBody(request, body);
  if (!encoded) return reply.send(json);
  // Other bytes, the same content: the tag turns weak (as the response compressor's would).
  return reply.header('etag', `W/${etag}`).header('content-encoding', encoded.coding).send(encoded.bytes);
}

export function cachedJson(cache: ResponseCache) {
  return (request: FastifyRequest, reply: FastifyReply, load: () => Promise<unknown>) =>
    cache.get(request.url, load).then((body) => sendCached(request, reply, body));
}
