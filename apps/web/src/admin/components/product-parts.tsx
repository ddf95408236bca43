import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageOf } from '@shop/shared/admin';
import {
  PRODUCT_STATUS_LABELS,
  type AdjustStockBody,
  type AdjustStockResponse,
  type AdminProductDetail,
  type AdminProductRow,
  type ArchiveProductResponse,
  type CreateProductBody,
  type ImportErrorBody,
  type ImportResult,
  type ProductStatus,
  type UpdateProductBody,
} from '@shop/shared/admin-products';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { apiGet, apiPost, apiPut } from '../../lib/api-client.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, toApiError } from '../../lib/api-error.ts';
import { toQueryString } from '../api/admin-api.ts';

/** Console query keys for products (all under 'admin', like every console query). */
export const productKeys = {
  all: ['admin', 'products'] as const,
  list: (filters: Record<string, string | number>) => ['admin', 'products', 'list', filters] as const,
  detail: (id: string) => ['admin', 'products', 'detail', id] as const,
};

export interface ProductListFilters {
  q: string;
  status: string;
  category: string;
  stock: string;
  page: number;
  pageSize?: number;
}

export const productListQuery = (filters: ProductListFilters) =>
  queryOptions({
    queryKey: productKeys.list({ ...filters }),
    queryFn: ({ signal }) => apiGet<PageOf<AdminProductRow>>(`/api/admin/products${toQueryString({ ...filters })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const productDetailQuery = (id: string) =>
  queryOptions({
    queryKey: productKeys.detail(id),
    queryFn: ({ signal }) => apiGet<AdminProductDetail>(`/api/admin/products/${encodeURIComponent(id)}`, { signal }),
  });

export const createProduct = (body: CreateProductBody) => apiPost<AdminProductDetail>('/api/admin/products', body);
export const updateProduct = (id: string, body: UpdateProductBody) => apiPut<AdminProductDetail>(`/api/admin/products/${encodeURIComponent(id)}`, body);
export const archiveProduct = (id: string, replacementProductId: string | null) =>
  apiPost<ArchiveProductResponse>(`/api/admin/products/${encodeURIComponent(id)}/archive`, { replacementProductId });
export const adjustStock = (variantId: string, body: AdjustStockBody) => apiPost<AdjustStockResponse>(`/api/admin/variants/${encodeURIComponent(variantId)}/stock`, body);

export const EXPORT_URL = '/api/admin/products/export.csv';

export type ImportOutcome = { ok: true; result: ImportResult } | { ok: false; error: ImportErrorBody['error'] };

/**
 * Sends a CSV file as text/csv (the JSON api-client cannot). A refused file answers with its
 * problems; other failures throw ApiError like every other call.
 */
export async function importProductsCsv(file: Blob, signal?: AbortSignal): Promise<ImportOutcome> {
  let res: Response;
  try {
    res = await fetch('/api/admin/products/import', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'text/csv', accept: 'application/json' }, body: file, signal: signal ?? null });
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

const STATUS_TONES: Record<ProductStatus, BadgeTone> = { active: 'success', draft: 'neutral', archived: 'amber' };

export function ProductStatusBadge({ status }: { status: ProductStatus }) {
  return (
    <Badge tone={STATUS_TONES[status]} className="whitespace-nowrap">
      {PRODUCT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** 「缺貨」 when nothing is left, 「庫存偏低」 when some variant is at or below its threshold. */
export function StockBadge({ stock, low }: { stock: number; low: boolean }) {
  if (stock <= 0)
    return (
      <Badge tone="danger" className="whitespace-nowrap">
        缺貨
      </Badge>
    );
  if (low)
    return (
      <Badge tone="amber" className="whitespace-nowrap">
        庫存偏低
      </Badge>
    );
  return null;
}

/** yyyy/MM/dd HH:mm in Taiwan time. */
export function formatDateTime(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}/${get('month')}/${get('day')} ${get('hour')}:${get('minute')}`;
}

/** +12 / −3 with a real minus sign, for stock changes. */
export const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0');
