import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '@shop/shared/admin';
import { TEXT_PAGES } from '@shop/shared/content';
import { cachedJson } from '../../lib/cached-json.ts';
import { responseCache } from '../../lib/response-cache.ts';
import * as service from './service.ts';

const Slug = z.object({
  slug: z
    .string()
    .max(80, { message: '代碼格式不正確', abort: true })
    .regex(/^[a-z0-9-]{1,80}$/, '代碼格式不正確'),
});
const MediaQuery = z
  .object({
    type: z.enum(['all', 'article', 'video'], { message: '類型必須是 all、article 或 video' }).default('all'),
    page: z
      .string()
      .max(4, { message: '頁碼必須是整數', abort: true })
      .regex(/^\d{1,4}$/, '頁碼必須是整數')
      .transform(Number)
      .refine((n) => n >= 1, '頁碼至少為 1')
      .default(1),
    preview: z.string().max(16).optional(),
  })
  .strict();

/** The event-bus channel of content edits (not a member: no page listens to it). */
const CONTENT_CHANNEL = 'content';

/**
 * Preview: a console user whose role may read content, asking with `?preview=1`, gets the saved
 * drafts (and hidden items). Anyone else asking the same gets what was published, as always.
 */
function isPreview(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query?.preview === '1' && can(request.auth?.user.role, 'content.read');
}

/** Public page content, one request per page. Team and master details are for members (docs/product-rules.md#routes-and-guards). */
const content: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = responseCache({ max: 200, ttlMs: 10_000 });
  // A change here is published for the other instances (their caches and kept pages); theirs
  // come back through the event bus, this instance's own told apart by its origin.
  const origin = randomUUID();
  const unsubscribe = service.onContentChange(() => {
    cache.invalidate();
    void app.events.publish(CONTENT_CHANNEL, { type: 'content.changed', data: { origin } });
  });
  const unsubscribeRemote = app.events.subscribeAll((_channel, event) => {
    if (event.type === 'content.changed' && event.data.origin !== origin) cache.invalidate();
  });
  const unsubscribeGap = app.events.onGap(() => cache.invalidate());
  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeRemote();
    unsubscribeGap();
  });
  const cached = cachedJson(cache);

  /** Published content from the shared cache; a preview is built fresh, never cached anywhere. */
  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    load: (preview: boolean) => Promise<unknown>,
  ) => {
    if (isPreview(request)) return reply.header('cache-control', 'no-store').send(await load(true));
    return cached(request, reply, () => load(false));
  };
  /** Member-only details are not cached; a preview says so to the browser too. */
  const uncached = async (
    request: FastifyRequest,
    reply: FastifyReply,
    load: (preview: boolean) => Promise<unknown>,
  ) => {
    const preview = isPreview(request);
    if (preview) reply.header('cache-control', 'no-store');
    return load(preview);
  };

  r.get('/api/content/landing', async (request, reply) =>
    answer(request, reply, (p) => service.landing(app.db, p)),
  );
  r.get('/api/content/company', async (request, reply) =>
    answer(request, reply, (p) => service.company(app.db, p)),
  );
  r.get(
    '/api/content/pages/:slug',
    { schema: { params: z.object({ slug: z.enum(TEXT_PAGES, { message: '沒有這個頁面' }) }) } },
    async (request, reply) => answer(request, reply, (p) => service.textPage(app.db, request.params.slug, p)),
  );
  r.get('/api/content/team', async (request, reply) =>
    answer(request, reply, (p) => service.team(app.db, p)),
  );
  r.get(
    '/api/content/team/:slug',
    { onRequest: app.requireUser, schema: { params: Slug } },
    async (request, reply) =>
      uncached(request, reply, (p) => service.teamMember(app.db, request.params.slug, p)),
  );
  r.get('/api/content/masters', async (request, reply) =>
    answer(request, reply, (p) => service.masters(app.db, p)),
  );
  r.get(
    '/api/content/masters/:slug',
    { onRequest: app.requireUser, schema: { params: Slug } },
    async (request, reply) => uncached(request, reply, (p) => service.master(app.db, request.params.slug, p)),
  );
  r.get('/api/content/jobs', async (request, reply) =>
    answer(request, reply, (p) => service.jobs(app.db, p)),
  );
  r.get('/api/content/media', { schema: { querystring: MediaQuery } }, async (request, reply) =>
    answer(request, reply, (p) => service.media(app.db, request.query.type, request.query.page, p)),
  );
  r.get('/api/content/downloads', async (request, reply) =>
    answer(request, reply, (p) => service.downloads(app.db, p)),
  );
  r.get('/api/content/ip', async (request, reply) =>
    answer(request, reply, (p) => service.ipRecords(app.db, p)),
  );
  r.get('/api/content/faq', async (request, reply) => answer(request, reply, (p) => service.faq(app.db, p)));
};

export default content;
