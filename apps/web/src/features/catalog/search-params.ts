import { PAGE_SIZE_DEFAULT, SORTS, type CatalogSort } from '@shop/shared/catalog-constants';

/** The mall's view as it lives in the URL, so a link reproduces it and Back works. */
export interface MallView {
  category?: string;
  q?: string;
  minPrice?: number;
  maxPrice?: number;
  inStock?: boolean;
  sort: CatalogSort;
  page: number;
}

const int = (v: string | null) => (v !== null && /^\d{1,9}$/.test(v) ? Number(v) : undefined);

/** Reads the URL leniently: unknown or malformed values fall back to the defaults. */
export function readMallView(params: URLSearchParams): MallView {
  const sort = params.get('sort');
  const category = params.get('category');
  const q = params.get('q')?.trim();
  const minPrice = int(params.get('minPrice'));
  const maxPrice = int(params.get('maxPrice'));
  return {
    ...(category && /^[a-z0-9-]{1,60}$/.test(category) ? { category } : {}),
    ...(q ? { q: q.slice(0, 50) } : {}),
    ...(minPrice !== undefined ? { minPrice } : {}),
    ...(maxPrice !== undefined && (minPrice === undefined || maxPrice >= minPrice) ? { maxPrice } : {}),
    ...(params.get('inStock') === '1' ? { inStock: true } : {}),
    sort: SORTS.includes(sort as CatalogSort) ? (sort as CatalogSort) : 'recommended',
    page: Math.max(1, Math.min(10_000, int(params.get('page')) ?? 1)),
  };
}

/** Writes only what differs from the defaults, in a fixed order, so equal views share a URL. */
export function writeMallView(view: MallView): URLSearchParams {
  const out = new URLSearchParams();
  if (view.category) out.set('category', view.category);
  if (view.q) out.set('q', view.q);
  if (view.minPrice !== undefined) out.set('minPrice', String(view.minPrice));
  if (view.maxPrice !== undefined) out.set('maxPrice', String(view.maxPrice));
  if (view.inStock) out.set('inStock', '1');
  if (view.sort !== 'recommended') out.set('sort', view.sort);
  if (view.page > 1) out.set('page', String(view.page));
  return out;
}

/** The API query for a view. */
export function apiQuery(view: MallView, pageSize = PAGE_SIZE_DEFAULT): string {
  const params = writeMallView(view);
  params.set('pageSize', String(pageSize));
  if (view.inStock) params.set('inStock', '1');
  return params.toString();
}

export function hasFilters(view: MallView): boolean {
  return Boolean(
    view.category || view.q || view.minPrice !== undefined || view.maxPrice !== undefined || view.inStock,
  );
}
