import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AppError, BadRequestError } from '../lib/errors.ts';
import { jsonEscapesNul, nulRefused, urlCarriesNul } from '../lib/nul.ts';

/** Deepest nesting of arrays and objects a JSON body may have; our deepest payload (content documents) needs under 10. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `text` nests arrays and objects deeper than `max`. One pass over the characters,
 * skipping strings, so it costs a few milliseconds on a 1 MB body, while parsing 500,000 nested
 * brackets takes a quarter of a second.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip to the end of the string, past escaped characters.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Where the storage API's object paths start (docs/product-rules.md#error-codes: its own codes). */
const STORAGE_OBJECTS = '/api/storage/b/';

/** Bodies a route without a body schema still takes: nothing, or an empty object. */
const EMPTY_OBJECT = /^\s*\{\s*\}\s*$/;

/**
 * The JSON body parser for every route, in front of Fastify's own (which keeps its protection
 * against `__proto__` and `constructor` keys):
 * - a body nested deeper than MAX_JSON_DEPTH, or holding a NUL character, is refused before it
 *   is parsed (and so is an address with a NUL, in every route);
 * - a route that declares no body schema takes no JSON body (an empty object is tolerated), so
 *   a body is never parsed and then ignored, and a JSON post to a form endpoint is refused (415).
 * Registered before the modules, whose scopes copy the parsers they find at registration.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      // The storage API checks its own object paths and answers them with its own codes.
      if (urlCarriesNul(request.url) && !request.url.startsWith(STORAGE_OBJECTS)) throw nulRefused();
    });
    const parseJson = app.getDefaultJsonParser(
      app.initialConfig.onProtoPoisoning ?? 'error',
      app.initialConfig.onConstructorPoisoning ?? 'error',
    );
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (request: FastifyRequest, body: string | Buffer, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        const hasSchema = Boolean((request.routeOptions.schema as { body?: unknown } | undefined)?.body);
        if (!hasSchema && text.length > 0 && !(text.length <= 64 && EMPTY_OBJECT.test(text))) {
          // 415: this route takes no JSON (a CSV import reads its own body; logout takes none).
          done(new AppError(415, 'unsupported-media-type', '這項操作不接受 JSON 資料。'), undefined);
          return;
        }
        if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
          done(new BadRequestError('送出的資料層次太深。'), undefined);
          return;
        }
        if (jsonEscapesNul(text)) {
          done(nulRefused(), undefined);
          return;
        }
        parseJson(request, text, done);
      },
    );
  },
  { name: 'json-body' },
);
