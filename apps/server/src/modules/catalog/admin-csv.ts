import {
  MAX_STOCK,
  PRODUCT_CSV_COLUMNS,
  formatOptions,
  type ImportProblem,
  type ImportResult,
  type ProductCsvRef,
  type ProductCsvRow,
} from '@shop/shared/admin-products';
import { toCsv } from '@shop/shared/csv';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { ConflictError } from '../../lib/errors.ts';
import { createProduct, productPath, searchText } from './service.ts';
import { deleteRedirect } from '../redirects/service.ts';
import * as repo from './admin-repo.ts';
import * as stock from './stock.ts';
import { sameOptions, archiveAdminProduct } from './admin-service.ts';

/**
 * The console's product CSV: the export, the check of a file before it is imported, and the
 * import itself (docs/decisions/006-security-hardening.md: stock moves by what changed since the
 * export).
 */

/**
 * Products and their variants on sale, one CSV row per variant, in the columns of
 * PRODUCT_CSV_COLUMNS. Text a spreadsheet would run as a formula is neutralised (toCsv), and the
 * stock is written twice: `stock` to edit, `stock_at_export` to tell the import what was edited.
 */
export async function exportProductsCsv(db: DbOrTx): Promise<string> {
  const found = await repo.exportRows(db);
  return toCsv([
    PRODUCT_CSV_COLUMNS,
    ...found.map((r) => [
      r.slug,
      r.name,
      r.categorySlug,
      r.status,
      r.sku,
      formatOptions(r.options),
      r.price,
      r.compareAtPrice,
      r.stock,
      r.lowStockThreshold,
      r.stock,
    ]),
  ]);
}

/**
 * The checks of an import that need the database, on every row whose cells look right (so one
 * answer lists everything): categories exist, SKUs are not another product's, and each stock
 * change still fits the stock of now. Run in the import's transaction: the variants named are
 * locked until it ends, so no sale slips in between this check and the write.
 */
export async function checkImport(db: DbOrTx, refs: readonly ProductCsvRef[]): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const slugs = [...new Set(refs.flatMap((r) => (r.categorySlug ? [r.categorySlug] : [])))];
  const known = new Set(slugs.length ? await repo.knownCategorySlugs(db, slugs) : []);
  const skus = refs.flatMap((r) => (r.sku ? [r.sku.toUpperCase()] : []));
  const owners = skus.length ? await repo.lockSkuOwners(db, skus) : [];
  for (const r of refs) {
    if (r.categorySlug && !known.has(r.categorySlug))
      problems.push({ row: r.row, column: 'category_slug', message: `找不到分類「${r.categorySlug}」` });
    const owner = r.sku ? owners.find((o) => o.sku.toUpperCase() === r.sku!.toUpperCase()) : undefined;
    if (owner && r.productSlug && owner.productSlug !== r.productSlug)
      problems.push({
        row: r.row,
        column: 'sku',
        message: `SKU「${owner.sku}」已經屬於商品「${owner.productName}」（${owner.productSlug}）`,
      });
    else if (r.sku && r.stock !== null) {
      const message = stockProblem(owner?.stock ?? null, r.sku, r.stock, r.stockAtExport);
      if (message) problems.push({ row: r.row, column: message.column, message: message.text });
    }
  }
  return problems;
}

/**
 * The stock rule of an import: an existing variant's stock changes by `stock` minus
 * `stock_at_export`, on top of the stock of now, so sales made since the export stay counted.
 * Without the exported figure a row may not change an existing variant's stock at all (the
 * server could not tell a sale from an edit). A new variant starts at `stock`.
 */
function stockProblem(
  current: number | null,
  sku: string,
  stock: number,
  stockAtExport: number | null,
): { column: string; text: string } | null {
  if (current === null) {
    return stockAtExport === null
      ? null
      : {
          column: 'stock_at_export',
          text: '找不到這個 SKU，無法比對匯出時的庫存；新規格請把 stock_at_export 留白，在 stock 填起始庫存',
        };
  }
  if (stockAtExport === null) {
    return stock === current
      ? null
      : {
          column: 'stock',
          text: '這個規格已經有庫存紀錄；要修改庫存，請用新匯出的檔案（含 stock_at_export 欄）修改 stock，或在商品頁調整庫存',
        };
  }
  const delta = stock - stockAtExport;
  const after = current + delta;
  const moved =
    current === stockAtExport
      ? `SKU ${sku} 現在有 ${current} 件`
      : `SKU ${sku} 匯出時有 ${stockAtExport} 件，現在${current < stockAtExport ? '剩' : '有'} ${current} 件`;
  if (after < 0)
    return { column: 'stock', text: `${moved}；這一列要減少 ${-delta} 件，會少於 0。請重新匯出後再修改。` };
  if (after > MAX_STOCK)
    return {
      column: 'stock',
      text: `${moved}；這一列要增加 ${delta} 件，會超過 ${MAX_STOCK.toLocaleString('en-US')} 件。`,
    };
  return null;
}

/** How much an import row changes an existing variant's stock (checked by stockProblem first). */
const stockDelta = (r: ProductCsvRow) => (r.stockAtExport === null ? 0 : r.stock - r.stockAtExport);

export interface ImportOutcome extends ImportResult {
  created: string[];
  updated: string[];
}

/**
 * Applies checked CSV rows in the caller's transaction: products are matched by slug (created
 * when new), variants by SKU (created when new; a deactivated one comes back on sale). Variants
 * missing from the file are left as they are. An existing variant's stock moves by the row's
 * difference from the exported stock (never overwritten), recorded as an adjustment.
 */
export async function applyImport(
  tx: Tx,
  csv: readonly ProductCsvRow[],
  actorId: string | null,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = {
    rows: csv.length,
    productsCreated: 0,
    productsUpdated: 0,
    variantsCreated: 0,
    variantsUpdated: 0,
    unchanged: 0,
    created: [],
    updated: [],
  };
  const categoryIds = new Map((await repo.allCategories(tx)).map((c) => [c.slug, c.id]));
  const groups = new Map<string, ProductCsvRow[]>();
  for (const r of csv) groups.set(r.productSlug, [...(groups.get(r.productSlug) ?? []), r]);

  for (const [slug, group] of groups) {
    const head = group[0]!;
    const catId = categoryIds.get(head.categorySlug)!;
    const current = await repo.lockProduct(tx, { slug });
    if (!current) {
      await createProduct(
        tx,
        {
          slug,
          name: head.productName,
          summary: '',
          categoryId: catId,
          tags: [],
          specs: [],
          description: [],
          images: [],
          status: head.status,
          sortWeight: 0,
        },
        group.map((r) => ({
          sku: r.sku,
          options: r.options,
          price: r.price,
          compareAtPrice: r.compareAtPrice,
          stock: r.stock,
          lowStockThreshold: r.lowStockThreshold,
        })),
        { reason: 'CSV 匯入（新規格）', actorId, consoleNote: true },
      );
      await deleteRedirect(tx, productPath(slug));
      outcome.productsCreated++;
      outcome.variantsCreated += group.length;
      outcome.created.push(slug);
      continue;
    }

    let changed = false;
    if (current.name !== head.productName || current.categoryId !== catId) {
      await repo.updateProduct(tx, current.id, {
        name: head.productName,
        categoryId: catId,
        searchText: searchText({ name: head.productName, summary: current.summary, tags: current.tags }),
      });
      changed = true;
    }
    if (current.status !== head.status) {
      if (head.status === 'archived') await archiveAdminProduct(tx, current.id, null);
      else {
        await repo.updateProduct(tx, current.id, { status: head.status, replacementId: null });
        if (current.status === 'archived') await deleteRedirect(tx, productPath(slug));
      }
      changed = true;
    }

    const existing = await repo.lockVariantsOf(tx, current.id);
    let nextSort = Math.max(-1, ...existing.map((v) => v.sortOrder)) + 1;
    for (const r of group) {
      const v = existing.find((e) => e.sku.toUpperCase() === r.sku.toUpperCase());
      if (!v) {
        const variantId = await repo.insertVariant(tx, {
          productId: current.id,
          sku: r.sku,
          options: r.options,
          price: r.price,
          compareAtPrice: r.compareAtPrice,
          lowStockThreshold: r.lowStockThreshold,
          sortOrder: nextSort++,
        });
        await stock.changeStock(tx, variantId, r.stock, {
          kind: 'import',
          reason: 'CSV 匯入（新規格）',
          actorId,
          consoleNote: true,
        });
        outcome.variantsCreated++;
        changed = true;
        continue;
      }
      const delta = stockDelta(r);
      const same =
        v.sku === r.sku &&
        sameOptions(v.options, r.options) &&
        v.price === r.price &&
        v.compareAtPrice === r.compareAtPrice &&
        delta === 0 &&
        v.lowStockThreshold === r.lowStockThreshold &&
        !v.archived;
      if (same) {
        outcome.unchanged++;
        continue;
      }
      await repo.updateVariant(tx, v.id, {
        sku: r.sku,
        options: r.options,
        price: r.price,
        compareAtPrice: r.compareAtPrice,
        lowStockThreshold: r.lowStockThreshold,
        archived: false,
      });
      // checkImport locked this row and checked the sum, so this only guards against a bug.
      if (
        !(await stock.changeStock(tx, v.id, delta, {
          kind: 'import',
          reason: 'CSV 匯入',
          actorId,
          consoleNote: true,
        }))
      ) {
        throw new ConflictError(`SKU ${r.sku} 的庫存在匯入時變動了，請重新匯出後再匯入。`);
      }
      outcome.variantsUpdated++;
      changed = true;
    }
    if (changed) {
      await repo.updateProduct(tx, current.id, {});
      outcome.productsUpdated++;
      outcome.updated.push(slug);
    }
  }
  return outcome;
}
