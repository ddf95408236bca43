import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formCarriesNul, nulRefused } from './nul.ts';

/** Posts a form server to server and answers the response's text. */
export type FormPost = (url: string, fields: Readonly<Record<string, string>>) => Promise<string>;

export class FormPostError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'FormPostError';
  }
}

/**
 * `fetch` for server-to-server calls: a request to this shop's own address (the built-in sandboxes
 * and the shop's notice endpoints) goes through the app in-process, through the same routes,
 * parsers and hooks as over the network, so the sandboxes work where the shop cannot reach its own
 * public URL (behind a proxy, in tests); anything else is a real fetch.
 */
export function ownFetch(app: FastifyInstance, publicUrl: string): typeof fetch {
  const own = new URL(publicUrl).origin;
  return async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin !== own) return fetch(input, init);
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'POST',
      url: `${target.pathname}${target.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      // A form body comes as a string (formPoster) or as URLSearchParams (openid-client's token request).
      ...(typeof init?.body === 'string' || init?.body instanceof URLSearchParams
        ? { payload: init.body.toString() }
        : {}),
    });
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload, {
      status: res.statusCode,
      headers: Object.entries(res.headers).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, String(v)] as [string, string]],
      ),
    });
  };
}

/**
 * Server-to-server form posts as ECPay's protocols make them (application/x-www-form-urlencoded,
 * a plain-text answer), through `ownFetch`; elsewhere with a time-out.
 */
export function formPoster(app: FastifyInstance, publicUrl: string, timeoutMs = 15_000): FormPost {
  const doFetch = ownFetch(app, publicUrl);
  return async (url, fields) => {
    const target = new URL(url);
    try {
      const res = await doFetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return await res.text();
    } catch (error) {
      throw new FormPostError(
        error instanceof Error ? error.message : String(error),
        target.origin + target.pathname,
      );
    }
  };
}

/** application/x-www-form-urlencoded, as ECPay posts; repeated keys keep the last value. */
export function parseForm(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

/** Lets a plugin's routes take form posts (ECPay's callbacks, the sandboxes' pages), up to `bodyLimit` bytes. */
export function acceptForms(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      const fields = parseForm(String(body));
      if (formCarriesNul(fields)) done(nulRefused(), undefined);
      else done(null, fields);
    },
  );
}

/** A form route's fields (nothing, for a body that is no form). */
export function formOf(request: FastifyRequest): Record<string, string> {
  return request.body && typeof request.body === 'object' ? (request.body as Record<string, string>) : {};
}
