import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CatalogListQuery,
  CategoryTreeResponse,
  ProductDetail,
  ProductListResponse,
  RelatedResponse,
} from '@shop/shared/catalog';
import { responseCache } from '../../lib/response-cache.ts';
import { cachedJson } from '../../lib/cached-json.ts';
import * as service from './service.ts';
import { createCatalogIndex, SORTS_BY_SALES, type ListsChange } from './catalog-index.ts';

/** The event-bus channel of catalog writes (not a member: no page listens to it). */
const CATALOG_CHANNEL = 'catalog';

const IdOrSlug = z.object({
  idOrSlug: z
    .string()
    .max(80, { message: '商品代碼格式不正確', abort: true })
    .regex(/^[A-Za-z0-9-]{1,80}$/, '商品代碼格式不正確'),
});

const LIST_PATH = '/api/catalog/products';

/** The product a cached page's key is about: `/api/catalog/products/<id or slug>[/related][?…]`. */
const pageSubject = (key: string) => key.split('?')[0]!.split('/')[4]?.toLowerCase();

/** Public catalog reads: list, detail, related products, category tree. */
const catalog: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Catalog reads are the hottest path: answers are kept a few seconds, and dropped on a write
  // through the catalog service in this process or, through the event bus, another instance's.
  // Lists and the category tree in one cache, product pages and their related products in another,
  // so a sale drops only the pages it changed.
  const lists = responseCache({ max: 500, ttlMs: 5_000 });
  const pages = responseCache({ max: 1_000, ttlMs: 5_000 });
  // The list, search and filters from memory (docs/decisions/021); a change of stock alone is put
  // in place instead of loading everything again (docs/decisions/022).
  const index = createCatalogIndex(() => service.catalogIndexRows(app.db), {
    loadCounts: (ids) => service.productCounts(app.db, ids),
    // Some products went in or out of stock, or their sales counts moved: only the lists that may
    // show them are dropped (docs/decisions/047), and related products when one sold out or came back.
    onListsChange: (change) => {
      const shows = (listUrl: string) => listMayChange(listUrl, change);
      lists.drop(shows);
      if (change.soldOut) pages.drop((key) => key.split('?', 1)[0]!.endsWith('/related'));
      service.listsChanged({ shows, related: change.soldOut });
    },
    onError: (error) => {
      app.log.warn(
        { err: error },
        'could not read the stock of changed products; the catalogue list loads afresh',
      );
      lists.invalidate();
      pages.invalidate();
      service.listsChanged();
    },
  });
  /** Whether a list (its address) may show otherwise after this change; the category tree only when stock turned. */
  const listMayChange = (listUrl: string, change: ListsChange): boolean => {
    const [path, search = ''] = listUrl.split('?', 2);
    if (path !== LIST_PATH) return change.soldOut;
    const query = CatalogListQuery.safeParse(Object.fromEntries(new URLSearchParams(search)));
    if (!query.success) return true;
    if (!change.soldOut && !SORTS_BY_SALES.includes(query.data.sort)) return false;
    return index.mayShow(query.data, change.productIds);
  };

  const origin = randomUUID();

  const apply = (change: service.CatalogChange) => {
    if (change.kind === 'all') {
      lists.invalidate();
      pages.invalidate();
      index.stale();
      return;
    }
    const subjects = new Set<string>();
    for (const id of change.productIds) {
      const slug = index.slugOf(id);
      subjects.add(id.toLowerCase());
      if (slug) subjects.add(slug);
    }
    // A product the index does not hold (none loaded yet, or not on sale) may be cached under its slug.
    if (change.productIds.some((id) => !index.slugOf(id))) pages.invalidate();
    else pages.drop((key) => subjects.has(pageSubject(key) ?? ''));
    index.stockChanged(change.productIds);
    // Read the new counts now (one read for every sale meanwhile), not when a list is next asked:
    // the pages kept from lists hear of what the change turned without a list being asked.
    index.settled().catch(() => undefined);
  };

  const unsubscribe = service.onCatalogChange((change) => {
    apply(change);
    // Other instances hear of it through the event bus (Redis when several run).
    void app.events.publish(CATALOG_CHANNEL, {
      type: 'catalog.changed',
      data: change.kind === 'stock' ? { origin, productIds: change.productIds } : { origin },
    });
  });
  const unsubscribeRemote = app.events.subscribeAll((channel, event) => {
    if (channel !== CATALOG_CHANNEL || event.type !== 'catalog.changed' || event.data.origin === origin)
      return;
    const ids = event.data.productIds;
    apply(
      Array.isArray(ids) && ids.every((id) => typeof id === 'string')
        ? { kind: 'stock', productIds: ids }
        : { kind: 'all' },
    );
  });
  // News from other instances may have been missed (Redis was away): start afresh.
  const unsubscribeGap = app.events.onGap(() => apply({ kind: 'all' }));
  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeRemote();
    unsubscribeGap();
  });
  const cachedList = cachedJson(lists);
  const cachedPage = cachedJson(pages);

  r.get(
    LIST_PATH,
    { schema: { querystring: CatalogListQuery, response: { 200: ProductListResponse } } },
    async (request, reply) => {
      // A stock change this instance heard of is in place before a list is answered, cached or not.
      await index.settled();
      return cachedList(request, reply, () => service.listFromIndex(index, request.query));
    },
  );

  r.get(
    '/api/catalog/products/:idOrSlug',
    { schema: { params: IdOrSlug, response: { 200: ProductDetail } } },
    async (request, reply) =>
      cachedPage(request, reply, () => service.getProduct(app.db, request.params.idOrSlug)),
  );

  r.get(
    '/api/catalog/products/:idOrSlug/related',
    { schema: { params: IdOrSlug, response: { 200: RelatedResponse } } },
    async (request, reply) => {
      // Related products leave out sold-out ones: a product that sold out has its cached lists dropped first.
      await index.settled();
      return cachedPage(request, reply, async () => ({
        items: await service.relatedProducts(app.db, request.params.idOrSlug),
      }));
    },
  );

  r.get(
    '/api/catalog/categories',
    { schema: { response: { 200: CategoryTreeResponse } } },
    async (request, reply) => cachedList(request, reply, () => service.categoryTree(app.db)),
  );
};

export default catalog;
