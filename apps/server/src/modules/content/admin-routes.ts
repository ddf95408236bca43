import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ContentDocument,
  PublishContentBody,
  ContentItemParams,
  ContentKindParams,
  ContentList,
  ContentOverview,
  CreateContentBody,
  ReorderContentBody,
  SaveContentDraftBody,
  SetContentVisibilityBody,
} from '@shop/shared/admin-content';
import { recordAudit } from '../../plugins/audit.ts';
import * as service from './admin-service.ts';
import { contentChanged } from './service.ts';

const Ok = z.object({ ok: z.literal(true) });

/**
 * Console API for the site's content: read every kind, save drafts (the live page does not
 * change), publish or discard them, and for list kinds create, delete, show/hide and reorder.
 * Every write is audited in its transaction; writes that change what visitors see drop the public
 * content cache once committed.
 */
const contentRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { permission: 'content.read' } as const;
  const write = { permission: 'content.write' } as const;
  const entityId = (kind: string, slug: string) => `${kind}/${slug}`;

  r.get('/api/admin/content', { config: read, schema: { response: { 200: ContentOverview } } }, async () =>
    service.overview(app.db),
  );

  r.get(
    '/api/admin/content/:kind',
    { config: read, schema: { params: ContentKindParams, response: { 200: ContentList } } },
    async (request) => service.listItems(app.db, request.params.kind),
  );

  r.get(
    '/api/admin/content/:kind/:slug',
    { config: read, schema: { params: ContentItemParams, response: { 200: ContentDocument } } },
    async (request) => service.getItem(app.db, request.params.kind, request.params.slug),
  );

  r.put(
    '/api/admin/content/:kind/:slug/draft',
    {
      config: write,
      schema: { params: ContentItemParams, body: SaveContentDraftBody, response: { 200: ContentDocument } },
    },
    async (request) => {
      const { kind, slug } = request.params;
      await app.db.transaction(async (tx) => {
        const change = await service.saveDraft(tx, kind, slug, request.body.data, request.body.baseRevision);
        await recordAudit(tx, request, {
          action: 'content.draft',
          entity: 'content',
          entityId: entityId(kind, slug),
          ...change,
        });
      });
      return service.getItem(app.db, kind, slug);
    },
  );

  r.post(
    '/api/admin/content/:kind/:slug/publish',
    {
      config: write,
      schema: { params: ContentItemParams, body: PublishContentBody, response: { 200: ContentDocument } },
    },
    async (request) => {
      const { kind, slug } = request.params;
      await app.db.transaction(async (tx) => {
        const change = await service.publish(tx, kind, slug, request.body?.baseRevision);
        await recordAudit(tx, request, {
          action: 'content.publish',
          entity: 'content',
          entityId: entityId(kind, slug),
          ...change,
        });
      });
      contentChanged();
      return service.getItem(app.db, kind, slug);
    },
  );

  r.delete(
    '/api/admin/content/:kind/:slug/draft',
    { config: write, schema: { params: ContentItemParams, response: { 200: ContentDocument } } },
    async (request) => {
      const { kind, slug } = request.params;
      await app.db.transaction(async (tx) => {
        const change = await service.discardDraft(tx, kind, slug);
        await recordAudit(tx, request, {
          action: 'content.discard',
          entity: 'content',
          entityId: entityId(kind, slug),
          ...change,
        });
      });
      return service.getItem(app.db, kind, slug);
    },
  );

  r.post(
    '/api/admin/content/:kind',
    {
      config: write,
      schema: { params: ContentKindParams, body: CreateContentBody, response: { 201: ContentDocument } },
    },
    async (request, reply) => {
      const { kind } = request.params;
      const slug = await app.db.transaction(async (tx) => {
        const created = await service.createItem(tx, kind, request.body.data);
        await recordAudit(tx, request, {
          action: 'content.create',
          entity: 'content',
          entityId: entityId(kind, created.slug),
          ...created.change,
        });
        return created.slug;
      });
      // Hidden, so visitors see no change; the cache is dropped all the same (cheap, and safe).
      contentChanged();
      return reply.code(201).send(await service.getItem(app.db, kind, slug));
    },
  );

  r.delete(
    '/api/admin/content/:kind/:slug',
    { config: write, schema: { params: ContentItemParams, response: { 200: Ok } } },
    async (request) => {
      const { kind, slug } = request.params;
      await app.db.transaction(async (tx) => {
        const change = await service.deleteItem(tx, kind, slug);
        await recordAudit(tx, request, {
          action: 'content.delete',
          entity: 'content',
          entityId: entityId(kind, slug),
          ...change,
        });
      });
      contentChanged();
      return { ok: true as const };
    },
  );

  r.patch(
    '/api/admin/content/:kind/:slug',
    {
      config: write,
      schema: {
        params: ContentItemParams,
        body: SetContentVisibilityBody,
        response: { 200: ContentDocument },
      },
    },
    async (request) => {
      const { kind, slug } = request.params;
      await app.db.transaction(async (tx) => {
        const change = await service.setVisibility(tx, kind, slug, request.body.published);
        await recordAudit(tx, request, {
          action: 'content.visibility',
          entity: 'content',
          entityId: entityId(kind, slug),
          ...change,
        });
      });
      contentChanged();
      return service.getItem(app.db, kind, slug);
    },
  );

  r.put(
    '/api/admin/content/:kind/order',
    {
      config: write,
      schema: { params: ContentKindParams, body: ReorderContentBody, response: { 200: ContentList } },
    },
    async (request) => {
      const { kind } = request.params;
      await app.db.transaction(async (tx) => {
        const change = await service.reorder(tx, kind, request.body.slugs);
        await recordAudit(tx, request, {
          action: 'content.reorder',
          entity: 'content',
          entityId: kind,
          ...change,
        });
      });
      contentChanged();
      return service.listItems(app.db, kind);
    },
  );
};

export default contentRoutes;
