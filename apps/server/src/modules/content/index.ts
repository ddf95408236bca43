import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TEXT_PAGES } from '@shop/shared/content';
import { cachedJson } from '../../lib/cached-json.ts';
import { responseCache } from '../../lib/response-cache.ts';
import * as service from './service.ts';

const Slug = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/, '代碼格式不正確') });
const MediaQuery = z
  .object({
    type: z.enum(['all', 'article', 'video'], { message: '類型必須是 all、article 或 video' }).default('all'),
    page: z.string().regex(/^\d{1,4}$/, '頁碼必須是整數').transform(Number).refine((n) => n >= 1, '頁碼至少為 1').default(1),
  })
  .strict();

/** Public page content, one request per page. Team and master details are for members (spec §2). */
const content: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = responseCache({ max: 200, ttlMs: 10_000 });
  const unsubscribe = service.onContentChange(() => cache.invalidate());
  app.addHook('onClose', async () => unsubscribe());
  const cached = cachedJson(cache);

  r.get('/api/content/landing', async (request, reply) => cached(request, reply, () => service.landing(app.db)));
  r.get('/api/content/company', async (request, reply) => cached(request, reply, () => service.company(app.db)));
  r.get('/api/content/pages/:slug', { schema: { params: z.object({ slug: z.enum(TEXT_PAGES, { message: '沒有這個頁面' }) }) } }, async (request, reply) =>
    cached(request, reply, () => service.textPage(app.db, request.params.slug)),
  );
  r.get('/api/content/team', async (request, reply) => cached(request, reply, () => service.team(app.db)));
  r.get('/api/content/team/:slug', { onRequest: app.requireUser, schema: { params: Slug } }, async (request) => service.teamMember(app.db, request.params.slug));
  r.get('/api/content/masters', async (request, reply) => cached(request, reply, () => service.masters(app.db)));
  r.get('/api/content/masters/:slug', { onRequest: app.requireUser, schema: { params: Slug } }, async (request) => service.master(app.db, request.params.slug));
  r.get('/api/content/jobs', async (request, reply) => cached(request, reply, () => service.jobs(app.db)));
  r.get('/api/content/media', { schema: { querystring: MediaQuery } }, async (request, reply) =>
    cached(request, reply, () => service.media(app.db, request.query.type, request.query.page)),
  );
  r.get('/api/content/downloads', async (request, reply) => cached(request, reply, () => service.downloads(app.db)));
  r.get('/api/content/ip', async (request, reply) => cached(request, reply, () => service.ipRecords(app.db)));
  r.get('/api/content/faq', async (request, reply) => cached(request, reply, () => service.faq(app.db)));
};

export default content;
