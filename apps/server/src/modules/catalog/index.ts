import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CatalogListQuery, CategoryTreeResponse, ProductDetail, ProductListResponse, RelatedResponse } from '@shop/shared/catalog';
import { responseCache } from '../../lib/response-cache.ts';
import { cachedJson } from '../../lib/cached-json.ts';
import * as service from './service.ts';
import { createCatalogIndex } from './catalog-index.ts';

/** The event-bus channel of catalog writes (not a member: no page listens to it). */
const CATALOG_CHANNEL = 'catalog';

const IdOrSlug = z.object({ idOrSlug: z.string().max(80, { message: '商品代碼格式不正確', abort: true }).regex(/^[A-Za-z0-9-]{1,80}$/, '商品代碼格式不正確') });

/** Public catalog reads: list, detail, related products, category tree. */
const catalog: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Catalog reads are the hottest path: answers are kept a few seconds, and dropped on any write
  // through the catalog service in this process.
  const cache = responseCache({ max: 500, ttlMs: 5_000 });
  // The list, search and filters from memory (docs/decisions/021), fresh after every write.
  const index = createCatalogIndex(() => service.catalogIndexRows(app.db));
  const unsubscribe = service.onCatalogChange(() => {
    cache.invalidate();
    index.stale();
    // Other instances hear of it through the event bus (Redis when several run).
    void app.events.publish(CATALOG_CHANNEL, { type: 'catalog.changed', data: {} });
  });
  const unsubscribeRemote = app.events.subscribeAll((channel, event) => {
    if (channel !== CATALOG_CHANNEL || event.type !== 'catalog.changed') return;
    cache.invalidate();
    index.stale();
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeRemote();
  });
  const cached = cachedJson(cache);

  r.get('/api/catalog/products', { schema: { querystring: CatalogListQuery, response: { 200: ProductListResponse } } }, async (request, reply) =>
    cached(request, reply, () => service.listFromIndex(index, request.query)),
  );

  r.get('/api/catalog/products/:idOrSlug', { schema: { params: IdOrSlug, response: { 200: ProductDetail } } }, async (request, reply) =>
    cached(request, reply, () => service.getProduct(app.db, request.params.idOrSlug)),
  );

  r.get('/api/catalog/products/:idOrSlug/related', { schema: { params: IdOrSlug, response: { 200: RelatedResponse } } }, async (request, reply) =>
    cached(request, reply, async () => ({ items: await service.relatedProducts(app.db, request.params.idOrSlug) })),
  );

  r.get('/api/catalog/categories', { schema: { response: { 200: CategoryTreeResponse } } }, async (request, reply) =>
    cached(request, reply, () => service.categoryTree(app.db)),
  );
};

export default catalog;
