import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry a secret: mailed action codes, tokens, signatures. Their values never
 * reach a log line (a log is read by more people, and kept longer, than the database).
 */
const SECRET_PARAMS = new Set([
  'code',
  'oobcode',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'key',
  'secret',
  'password',
  'signature',
  'sig',
  'checkmacvalue',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);

const REDACTED = '[redacted]';

/** Paths that carry a secret: a marketing mail's unsubscribe link keeps the member id, loses its signature. */
const SECRET_PATH = /^(\/unsubscribe\/[^/?.]*\.)[^/?]+/;

/**
 * The URL with the value of every secret query parameter (and a secret path's signature) replaced;
 * path and other parameters kept.
 */
export function redactUrl(raw: string): string {
  const url = raw.replace(SECRET_PATH, `$1${REDACTED}`);
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A broken escape: judge the raw name.
      }
      return eq >= 0 && SECRET_PARAMS.has(name.trim().toLowerCase()) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/**
 * Only the named fields of a posted form, each cut to 64 characters: for logging what a caller sent
 * without its signature, card digits or free text.
 */
export function safeFields(body: unknown, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const key of keys) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = String(value).slice(0, 64);
  }
  return out;
}

/**
 * pino serializers for the server's logger. `req` is Fastify's default shape with the URL redacted;
 * `url` covers the lines that log a request's URL on their own (the error handler's).
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
};
