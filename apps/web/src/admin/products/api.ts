import type { PageOf } from '@shop/shared/admin';
import type {
  AdjustStockBody,
  AdjustStockResponse,
  AdminProductDetail,
  AdminProductRow,
  ArchiveProductResponse,
  CreateProductBody,
  ImportErrorBody,
  ImportResult,
  StockHistoryResponse,
  UpdateProductBody,
} from '@shop/shared/admin-products';
import { apiGet, apiPost, apiPut } from '../../lib/api-client.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, toApiError } from '../../lib/api-error.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

/** Rows per page of a variant's stock history. */
export const STOCK_HISTORY_PAGE_SIZE = 10;

export interface ProductListFilters {
  q: string;
  status: string;
  category: string;
  stock: string;
  page: number;
  pageSize?: number;
}

export type ImportOutcome =
  { ok: true; result: ImportResult } | { ok: false; error: ImportErrorBody['error'] };

/**
 * Sends a CSV file as text/csv (the JSON api-client cannot). A refused file answers with its
 * problems; other failures throw ApiError like every other call.
 */
async function importCsv(file: Blob, signal?: AbortSignal): Promise<ImportOutcome> {
  let res: Response;
  try {
    res = await fetch(adminApiUrl('/products/import'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'text/csv', accept: 'application/json' },
      body: file,
      signal: signal ?? null,
    });
  } catch {
    throw new ApiError(0, 'network-request-failed', NETWORK_ERROR_MESSAGE);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (res.ok) return { ok: true, result: body as ImportResult };
  const error = (body as Partial<ImportErrorBody> | null)?.error;
  if (res.status === 400 && error?.code === 'invalid-csv') return { ok: false, error };
  throw toApiError(res.status, body);
}

/** The console's product calls. */
export const productsApi = {
  list: (filters: ProductListFilters, signal?: AbortSignal) =>
    apiGet<PageOf<AdminProductRow>>(adminApiUrl('/products', { ...filters }), { signal }),
  detail: (id: string, signal?: AbortSignal) =>
    apiGet<AdminProductDetail>(adminApiUrl(`/products/${seg(id)}`), { signal }),
  create: (body: CreateProductBody) => apiPost<AdminProductDetail>(adminApiUrl('/products'), body),
  update: (id: string, body: UpdateProductBody) =>
    apiPut<AdminProductDetail>(adminApiUrl(`/products/${seg(id)}`), body),
  archive: (id: string, replacementProductId: string | null) =>
    apiPost<ArchiveProductResponse>(adminApiUrl(`/products/${seg(id)}/archive`), { replacementProductId }),
  adjustStock: (variantId: string, body: AdjustStockBody) =>
    apiPost<AdjustStockResponse>(adminApiUrl(`/variants/${seg(variantId)}/stock`), body),
  /** A variant's stock ledger, newest first, a page at a time. */
  stockHistory: (productId: string, variantId: string, page: number, signal?: AbortSignal) =>
    apiGet<StockHistoryResponse>(
      adminApiUrl(`/products/${seg(productId)}/variants/${seg(variantId)}/stock-history`, {
        page,
        pageSize: STOCK_HISTORY_PAGE_SIZE,
      }),
      { signal },
    ),
  importCsv,
  /** Where 「匯出 CSV」 downloads every product from. */
  exportUrl: adminApiUrl('/products/export.csv'),
};
