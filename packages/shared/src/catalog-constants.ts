/** Catalog constants and rules without dependencies, so the web app's first load stays small. */

export const SORTS = ['recommended', 'newest', 'price-asc', 'price-desc', 'best-selling'] as const;
export type CatalogSort = (typeof SORTS)[number];
export const SORT_LABELS: Record<CatalogSort, string> = {
  recommended: '推薦排序',
  newest: '最新上架',
  'price-asc': '價格由低到高',
  'price-desc': '價格由高到低',
  'best-selling': '熱銷排行',
};

export const PAGE_SIZE_MAX = 48;
export const PAGE_SIZE_DEFAULT = 12;

/** Stock message rule shared by the API and the page. */
export function stockState(stock: number, lowStockThreshold: number): 'in-stock' | 'low' | 'sold-out' {
  if (stock <= 0) return 'sold-out';
  if (stock <= lowStockThreshold) return 'low';
  return 'in-stock';
}

export function variantLabel(options: Readonly<Record<string, string>>): string {
  return Object.values(options).join(' / ') || '標準';
}
