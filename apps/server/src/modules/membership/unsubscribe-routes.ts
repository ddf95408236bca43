import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { acceptForms, formOf } from '../../lib/form-post.ts';
import { marketingConsent, memberOfUnsubscribeToken, unsubscribeWithToken } from './consent.ts';
import { unsubscribePage, type UnsubscribePageState } from './unsubscribe-page.ts';

/** The one body a one-click unsubscribe carries (RFC 8058), as a form field. */
const ONE_CLICK = { name: 'List-Unsubscribe', value: 'One-Click' } as const;
const BODY_LIMIT = 2048;

/**
 * The value of the one form field of a multipart/form-data body (RFC 7578), the other way RFC 8058
 * lets a mail app post; null when the body is not that one field.
 */
function multipartOneClick(body: string, contentType: string): boolean {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) return false;
  const parts = body.split(`--${b}`).slice(1, -1);
  if (parts.length !== 1) return false;
  const [head, ...rest] = parts[0]!.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
  const named = /content-disposition:\s*form-data;\s*name="([^"]*)"/i.exec(head ?? '');
  return named?.[1] === ONE_CLICK.name && rest.join('\n\n').replace(/\r?\n$/, '') === ONE_CLICK.value;
}

/**
 * Unsubscribe links in marketing mail, answered without a session (docs/product-rules.md#reminders):
 * GET shows a page with a button and changes nothing (link scanners open links); POST with the
 * one-click body (`List-Unsubscribe=One-Click`, from a mail app or from that button) unsubscribes.
 * A token the server did not sign is refused and changes nothing.
 */
const unsubscribe: FastifyPluginAsync = async (app) => {
  acceptForms(app, BODY_LIMIT);
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_r, body, done) => done(null, String(body)),
  );
  const memberUrl = `${app.config.publicUrl}/member`;
  const page = (reply: FastifyReply, status: number, state: UnsubscribePageState) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(unsubscribePage(state));
  const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token.slice(0, 200);

  app.get('/unsubscribe/:token', async (request, reply) => {
    const token = tokenOf(request);
    const userId = memberOfUnsubscribeToken(app.config.mailLinkSecret, token);
    if (!userId) return page(reply, 400, { kind: 'refused', reason: 'token', memberUrl });
    const { granted } = await marketingConsent(app.db, userId);
    return page(reply, 200, { kind: 'ask', action: `/unsubscribe/${token}`, alreadyOff: !granted });
  });

  app.post('/unsubscribe/:token', async (request, reply) => {
    const type = String(request.headers['content-type'] ?? '');
    const oneClick = /^multipart\/form-data/i.test(type)
      ? typeof request.body === 'string' && multipartOneClick(request.body, type)
      : (() => {
          const fields = formOf(request);
          const keys = Object.keys(fields);
          return keys.length === 1 && fields[ONE_CLICK.name] === ONE_CLICK.value;
        })();
    const token = tokenOf(request);
    if (!memberOfUnsubscribeToken(app.config.mailLinkSecret, token))
      return page(reply, 400, { kind: 'refused', reason: 'token', memberUrl });
    if (!oneClick) return page(reply, 400, { kind: 'refused', reason: 'body', memberUrl });
    await app.db.transaction((tx) => unsubscribeWithToken(tx, app.config.mailLinkSecret, token));
    return page(reply, 200, { kind: 'done', memberUrl });
  });
};

export default unsubscribe;
