import type { FastifyInstance, FastifyRequest } from 'fastify';

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
 * Server-to-server form posts as ECPay's protocols make them (application/x-www-form-urlencoded,
 * a plain-text answer). A post to this shop's own address (the built-in sandboxes and the shop's
 * notice endpoints) goes through the app in-process, through the same routes, parsers and hooks
 * as over the network, so the sandboxes work where the shop cannot reach its own public URL
 * (behind a proxy, in tests); anything else goes over HTTPS with a time-out.
 */
export function formPoster(app: FastifyInstance, publicUrl: string, timeoutMs = 15_000): FormPost {
  const own = new URL(publicUrl).origin;
  return async (url, fields) => {
    const target = new URL(url);
    const body = new URLSearchParams(fields).toString();
    if (target.origin === own) {
      const res = await app.inject({ method: 'POST', url: `${target.pathname}${target.search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
      return res.body;
    }
    try {
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(timeoutMs) });
      return await res.text();
    } catch (error) {
      throw new FormPostError(error instanceof Error ? error.message : String(error), target.origin + target.pathname);
    }
  };
}

/**
 * JSON posts server to server (ECPay's e-invoice API), the same way: to this shop's own address
 * through the app in-process, anywhere else over HTTPS with a time-out. Resolves with the parsed
 * answer (its text when it is not JSON); throws `FormPostError` when nothing came back and
 * `JsonPostStatusError` on an HTTP status other than 2xx.
 */
export class JsonPostStatusError extends Error {
  constructor(readonly status: number) {
    super(`answered HTTP ${status}`);
    this.name = 'JsonPostStatusError';
  }
}

export function jsonPoster(app: FastifyInstance, publicUrl: string, timeoutMs = 15_000): (url: string, body: unknown) => Promise<unknown> {
  const own = new URL(publicUrl).origin;
  const read = (status: number, text: string): unknown => {
    if (status < 200 || status > 299) throw new JsonPostStatusError(status);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  return async (url, body) => {
    const target = new URL(url);
    const payload = JSON.stringify(body);
    if (target.origin === own) {
      const res = await app.inject({ method: 'POST', url: `${target.pathname}${target.search}`, headers: { 'content-type': 'application/json' }, payload });
      return read(res.statusCode, res.body);
    }
    let res: Response;
    try {
      res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: payload, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new FormPostError(error instanceof Error ? error.message : String(error), target.origin + target.pathname);
    }
    return read(res.status, await res.text());
  };
}

/** application/x-www-form-urlencoded, as ECPay posts; repeated keys keep the last value. */
export function parseForm(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

/** Lets a plugin's routes take form posts (ECPay's callbacks, the sandboxes' pages), up to `bodyLimit` bytes. */
export function acceptForms(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_request, body, done) => done(null, parseForm(String(body))));
}

/** A form route's fields (nothing, for a body that is no form). */
export function formOf(request: FastifyRequest): Record<string, string> {
  return request.body && typeof request.body === 'object' ? (request.body as Record<string, string>) : {};
}
