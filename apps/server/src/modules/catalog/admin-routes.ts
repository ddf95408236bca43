import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdjustStockBody,
  AdjustStockResponse,
  AdminProductDetail,
  AdminProductList,
  AdminProductListQuery,
  ArchiveProductBody,
  ArchiveProductResponse,
  CreateProductBody,
  ImportResult,
  MAX_IMPORT_BYTES,
  ProductIdParams,
  UpdateProductBody,
  VariantIdParams,
  readProductCsv,
  ImportErrorBody,
  StockHistoryParams,
  StockHistoryQuery,
  StockHistoryResponse,
  type ImportProblem,
} from '@shop/shared/admin-products';
import { ApiErrorBody } from '@shop/shared/api-error';
import { CSV_CONTENT_TYPE } from '@shop/shared/csv';
import { z } from 'zod';
import { catalogChanged, stockChanged } from './service.ts';
import { recordAudit } from '../../plugins/audit.ts';
import {
  adjustStock,
  archiveAdminProduct,
  createAdminProduct,
  getAdminProduct,
  listAdminProducts,
  snapshot,
  stockHistory,
  updateAdminProduct,
} from './admin-service.ts';
import { applyImport, checkImport, exportProductsCsv } from './admin-csv.ts';
import { taipeiDay } from '@shop/shared/taipei-time';
import { nulRefused } from '../../lib/nul.ts';

const READ = { permission: 'products.read' } as const;
const WRITE = { permission: 'products.write' } as const;

function importRefusal(problems: ImportProblem[]): ImportErrorBody {
  return {
    error: {
      code: 'invalid-csv',
      message: `檔案有 ${problems.length} 個問題，沒有匯入任何資料。請修正後再匯入。`,
      problems,
    },
  };
}

/**
 * Console API: products and stock. Reads need products.read, writes products.write (the owner);
 * every write leaves an audit row in its own transaction and drops the public catalog caches.
 */
const productsRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The CSV import arrives as raw text; it is decoded here so a Big5 file gets a clear answer.
  app.addContentTypeParser(
    ['text/csv', 'application/csv'],
    { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES },
    (_request, body, done) => {
      if ((body as Buffer).includes(0)) done(nulRefused(), undefined);
      else done(null, body);
    },
  );

  r.get(
    '/api/admin/products',
    { config: READ, schema: { querystring: AdminProductListQuery, response: { 200: AdminProductList } } },
    async (request) => listAdminProducts(app.db, request.query),
  );

  r.get('/api/admin/products/export.csv', { config: READ }, async (_request, reply) => {
    const csv = await exportProductsCsv(app.db);
    return reply
      .header('content-type', CSV_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="products-${taipeiDay(new Date(), '')}.csv"`)
      .send(csv);
  });

  r.get(
    '/api/admin/products/:productId',
    { config: READ, schema: { params: ProductIdParams, response: { 200: AdminProductDetail } } },
    async (request) => getAdminProduct(app.db, request.params.productId),
  );

  /** A variant's stock ledger, newest first: every sale, return, import and adjustment, with its reason. */
  r.get(
    '/api/admin/products/:productId/variants/:variantId/stock-history',
    {
      config: READ,
      schema: {
        params: StockHistoryParams,
        querystring: StockHistoryQuery,
        response: { 200: StockHistoryResponse },
      },
    },
    async (request) =>
      stockHistory(app.db, request.params.productId, request.params.variantId, request.query),
  );

  r.post(
    '/api/admin/products',
    { config: WRITE, schema: { body: CreateProductBody, response: { 201: AdminProductDetail } } },
    async (request, reply) => {
      const id = await app.db.transaction(async (tx) => {
        const productId = await createAdminProduct(tx, request.body, request.staff?.id ?? null);
        await recordAudit(tx, request, {
          action: 'product.create',
          entity: 'product',
          entityId: productId,
          after: await snapshot(tx, productId),
        });
        return productId;
      });
      catalogChanged();
      return reply.code(201).send(await getAdminProduct(app.db, id));
    },
  );

  r.put(
    '/api/admin/products/:productId',
    {
      config: WRITE,
      schema: { params: ProductIdParams, body: UpdateProductBody, response: { 200: AdminProductDetail } },
    },
    async (request) => {
      const { productId } = request.params;
      await app.db.transaction(async (tx) => {
        const before = await snapshot(tx, productId);
        await updateAdminProduct(tx, productId, request.body, request.staff?.id ?? null);
        await recordAudit(tx, request, {
          action: 'product.update',
          entity: 'product',
          entityId: productId,
          before,
          after: await snapshot(tx, productId),
        });
      });
      catalogChanged();
      return getAdminProduct(app.db, productId);
    },
  );

  r.post(
    '/api/admin/products/:productId/archive',
    {
      config: WRITE,
      schema: {
        params: ProductIdParams,
        body: ArchiveProductBody,
        response: { 200: ArchiveProductResponse },
      },
    },
    async (request) => {
      const { productId } = request.params;
      const result = await app.db.transaction(async (tx) => {
        const before = await snapshot(tx, productId);
        const archived = await archiveAdminProduct(tx, productId, request.body.replacementProductId ?? null);
        await recordAudit(tx, request, {
          action: 'product.archive',
          entity: 'product',
          entityId: productId,
          before: { slug: before.slug, status: before.status, replacementId: before.replacementId },
          after: {
            slug: before.slug,
            status: 'archived',
            replacementId: request.body.replacementProductId ?? null,
            redirect: archived.redirect,
          },
        });
        return archived;
      });
      catalogChanged();
      return result;
    },
  );

  r.post(
    '/api/admin/variants/:variantId/stock',
    {
      config: WRITE,
      schema: { params: VariantIdParams, body: AdjustStockBody, response: { 200: AdjustStockResponse } },
    },
    async (request) => {
      const { variantId } = request.params;
      const { delta, reason } = request.body;
      const result = await app.db.transaction(async (tx) => {
        const adjusted = await adjustStock(tx, variantId, delta, reason, request.staff?.id ?? null);
        await recordAudit(tx, request, {
          action: 'stock.adjust',
          entity: 'variant',
          entityId: variantId,
          before: { productId: adjusted.productId, sku: adjusted.sku, stock: adjusted.before },
          after: { productId: adjusted.productId, sku: adjusted.sku, stock: adjusted.stock, delta, reason },
        });
        return adjusted;
      });
      // Stock alone changed: the catalogue puts it in place.
      stockChanged([result.productId]);
      return {
        variantId: result.variantId,
        sku: result.sku,
        stock: result.stock,
        adjustment: result.adjustment,
      };
    },
  );

  r.post(
    '/api/admin/products/import',
    {
      config: { ...WRITE, slowBody: true },
      bodyLimit: MAX_IMPORT_BYTES,
      schema: {
        response: { 200: ImportResult, 400: z.union([ImportErrorBody, ApiErrorBody]), 415: ApiErrorBody },
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        return reply.code(415).send({
          error: {
            code: 'unsupported-media-type',
            message: '請以 CSV 檔案匯入（content-type: text/csv）。',
          },
        });
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(request.body);
      } catch {
        return reply.code(400).send(
          importRefusal([
            {
              row: 0,
              column: null,
              message: '檔案不是 UTF-8 編碼。請在 Excel 選「另存新檔」→「CSV UTF-8（逗號分隔）」後再匯入。',
            },
          ]),
        );
      }
      const { rows, refs, problems } = readProductCsv(text);
      const outcome = await app.db.transaction(async (tx) => {
        // Every row is checked before anything is written; one problem anywhere and nothing changes.
        const all = [...problems, ...(await checkImport(tx, refs))].sort((a, b) => a.row - b.row);
        if (all.length) return { problems: all };
        const applied = await applyImport(tx, rows, request.staff?.id ?? null);
        const { created, updated, ...counts } = applied;
        await recordAudit(tx, request, {
          action: 'products.import',
          entity: 'product',
          entityId: null,
          after: { ...counts, created, updated },
        });
        return { counts };
      });
      if (outcome.problems) return reply.code(400).send(importRefusal(outcome.problems));
      catalogChanged();
      return outcome.counts;
    },
  );
};

export default productsRoutes;
