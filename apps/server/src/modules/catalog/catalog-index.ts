import type { CatalogListQuery } from '@shop/shared/catalog';
import { pageWindow } from '@shop/shared/paging';
import type { IndexRow } from './repo.ts';

/**
 * The mall's list, search, filters, sorts and paging answered from memory (docs/decisions/021):
 * every product on sale with its variants' price and stock summary is loaded in one query, kept
 * until a catalog write in this process or another instance's (through the event bus) marks it
 * stale, and reloaded on the next list, once however many lists ask at the same moment. It answers
 * exactly what the SQL list (repo.listProducts) answers, which a test checks query by query.
 */

/** 台 and 臺 are the same character to a shopper: searches match either way. */
export const foldSearch = (text: string) => text.toLowerCase().replaceAll('臺', '台');

interface Entry {
  readonly row: IndexRow;
  readonly search: string;
}

type Sort = CatalogListQuery['sort'];

const byId = (a: Entry, b: Entry) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0);

/** The same orders as the SQL list's, the product id breaking every tie. */
const COMPARE: Record<Sort, (a: Entry, b: Entry) => number> = {
  recommended: (a, b) => b.row.sort_weight - a.row.sort_weight || b.row.sold_count - a.row.sold_count || b.row.created_us - a.row.created_us || byId(a, b),
  newest: (a, b) => b.row.created_us - a.row.created_us || byId(a, b),
  'price-asc': (a, b) => a.row.min_price - b.row.min_price || byId(a, b),
  'price-desc': (a, b) => b.row.min_price - a.row.min_price || byId(a, b),
  'best-selling': (a, b) => b.row.sold_count - a.row.sold_count || byId(a, b),
};

interface Snapshot {
  /** Every product on sale, once per sort order. */
  readonly sorted: Readonly<Record<Sort, readonly Entry[]>>;
}

function snapshotOf(rows: readonly IndexRow[]): Snapshot {
  const entries = rows.map((row) => ({ row, search: foldSearch(row.search_text) }));
  const sorted = Object.fromEntries((Object.keys(COMPARE) as Sort[]).map((sort) => [sort, [...entries].sort(COMPARE[sort])])) as Record<Sort, Entry[]>;
  return { sorted };
}

export interface CatalogIndex {
  list(query: CatalogListQuery): Promise<{ total: number; items: IndexRow[] }>;
  /** A write happened (here or on another instance): the next list reloads. */
  stale(): void;
}

export function createCatalogIndex(load: () => Promise<IndexRow[]>): CatalogIndex {
  let current: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  let generation = 0;

  const snapshot = async (): Promise<Snapshot> => {
    if (current) return current;
    if (loading) return loading;
    const startedAt = generation;
    const attempt = load().then((rows) => {
      const made = snapshotOf(rows);
      // A write during the load makes this snapshot old before it is kept: answer with it, keep none.
      if (startedAt === generation) current = made;
      return made;
    });
    loading = attempt;
    try {
      return await attempt;
    } finally {
      if (loading === attempt) loading = null;
    }
  };

  return {
    async list(q) {
      const all = (await snapshot()).sorted[q.sort];
      const needle = q.q ? foldSearch(q.q) : null;
      const matches = all.filter(
        ({ row, search }) =>
          (!q.category || row.category_slug === q.category || row.parent_slug === q.category) &&
          (!needle || search.includes(needle)) &&
          (q.minPrice === undefined || row.max_price >= q.minPrice) &&
          (q.maxPrice === undefined || row.min_price <= q.maxPrice) &&
          (!q.inStock || row.stock > 0),
      );
      const { offset, limit } = pageWindow(q.page, q.pageSize);
      return { total: matches.length, items: matches.slice(offset, offset + limit).map((e) => e.row) };
    },
    stale() {
      generation += 1;
      current = null;
      loading = null;
    },
  };
}
