/**
 * Paging arithmetic in one place: which rows a page holds and how many pages there are.
 * Pages count from 1; an empty list still has one (empty) page.
 */
export interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

/** The rows of page `page` (from 1) when a page holds `size` rows. */
export function pageWindow(page: number, size: number): PageWindow {
  return { offset: (Math.max(1, page) - 1) * size, limit: size };
}

/** How many pages `total` rows fill, at least 1. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The paged answer's frame: the page's items with the page number, size, total and page count. */
export function pageResult<T>(
  items: T[],
  page: number,
  size: number,
  total: number,
): { items: T[]; page: number; pageSize: number; total: number; totalPages: number } {
  return { items, page, pageSize: size, total, totalPages: pageCount(total, size) };
}
