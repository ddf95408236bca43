import type { FastifyRequest } from 'fastify';

/**
 * The path the router matched, for every check that decides what a request is (API or page, open
 * during maintenance or not). The raw `request.url` is not it: the router decodes percent-escapes,
 * so `/%61pi/cart` reaches the `/api/cart` route while failing `url.startsWith('/api/')`.
 *
 * A matched route gives its own pattern (`/api/orders/:orderNo`); the catch-all and wildcard routes
 * give the decoded path, which is what they serve.
 */
export function routedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern !== undefined && !pattern.includes('*')) return pattern;
  return decodedPathname(request.url);
}

/** True for the API's own paths (`/api` and below). */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function decodedPathname(url: string): string {
  const raw = url.split('?', 1)[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    // A broken escape cannot route anywhere but the catch-all; judge it by its raw form.
    return raw;
  }
}
