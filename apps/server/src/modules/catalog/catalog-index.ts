import type { CatalogListQuery } from '@shop/shared/catalog';
import { pageWindow } from '@shop/shared/paging';
import type { IndexRow, ProductCounts } from './repo.ts';

/**
 * The mall's list, search, filters, sorts and paging answered from memory (docs/decisions/021):
 * every product on sale with its variants' price and stock summary is loaded in one query, kept
 * until a catalog write in this process or another instance's (through the event bus) marks it
 * stale, and reloaded on the next list, once however many lists ask at the same moment. It answers
 * exactly what the SQL list (repo.listProducts) answers, which a test checks query by query.
 *
 * A sale, a cancellation or an adjustment does not make it stale: the stock and sales count of
 * the products named are read again and put in place (docs/decisions/022), the two orders that
 * count sales sorted again when a count moved, and the lists that may show those products are
 * named to the caller (`onListsChange`, docs/decisions/047): the others stay as they were.
 */

/** 台 and 臺 are the same character to a shopper: searches match either way. */
export const foldSearch = (text: string) => text.toLowerCase().replaceAll('臺', '台');

interface Entry {
  /** Replaced (never changed) when the product's stock is read again. */
  row: IndexRow;
  readonly search: string;
  /** Its place in the snapshot, for the search memo. */
  readonly n: number;
}

type Sort = CatalogListQuery['sort'];

const byId = (a: Entry, b: Entry) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0);

/** The same orders as the SQL list's, the product id breaking every tie. */
const COMPARE: Record<Sort, (a: Entry, b: Entry) => number> = {
  recommended: (a, b) =>
    b.row.sort_weight - a.row.sort_weight ||
    b.row.sold_count - a.row.sold_count ||
    b.row.created_us - a.row.created_us ||
    byId(a, b),
  newest: (a, b) => b.row.created_us - a.row.created_us || byId(a, b),
  'price-asc': (a, b) => a.row.min_price - b.row.min_price || byId(a, b),
  'price-desc': (a, b) => b.row.min_price - a.row.min_price || byId(a, b),
  'best-selling': (a, b) => b.row.sold_count - a.row.sold_count || byId(a, b),
};

/** The orders that count sales: sorted again when a sales count moves. */
export const SORTS_BY_SALES: readonly Sort[] = ['recommended', 'best-selling'];

interface Snapshot {
  /** Every product on sale, once per sort order (the same entries in each); replaced, never changed. */
  readonly sorted: Record<Sort, readonly Entry[]>;
  readonly byId: ReadonlyMap<string, Entry>;
  /** Which entries a search matches (1 by entry number), per search asked for lately. */
  readonly searches: Map<string, Uint8Array>;
}

/** Searches remembered per snapshot: the words shoppers type repeat, with other sorts, filters and pages. */
const SEARCH_MEMO_SIZE = 256;

function snapshotOf(rows: readonly IndexRow[]): Snapshot {
  const entries = rows.map((row, n) => ({ row, n, search: foldSearch(row.search_text) }));
  const sorted = Object.fromEntries(
    (Object.keys(COMPARE) as Sort[]).map((sort) => [sort, [...entries].sort(COMPARE[sort])]),
  ) as Record<Sort, Entry[]>;
  return { sorted, byId: new Map(entries.map((e) => [e.row.id, e])), searches: new Map() };
}

/** The entries a folded search matches (names and words do not change with stock, so a snapshot keeps it). */
function matchesOf(snapshot: Snapshot, needle: string): Uint8Array {
  let matches = snapshot.searches.get(needle);
  if (!matches) {
    const all = snapshot.sorted.recommended;
    matches = new Uint8Array(all.length);
    for (const entry of all) if (entry.search.includes(needle)) matches[entry.n] = 1;
    if (snapshot.searches.size >= SEARCH_MEMO_SIZE) snapshot.searches.clear();
    snapshot.searches.set(needle, matches);
  }
  return matches;
}

/** Whether a product passes a list's category, prices and search (its stock aside). */
function passes(entry: Entry, q: CatalogListQuery, matches: Uint8Array | null): boolean {
  const { row } = entry;
  if (q.category && row.category_slug !== q.category && row.parent_slug !== q.category) return false;
  if (q.minPrice !== undefined && row.max_price < q.minPrice) return false;
  if (q.maxPrice !== undefined && row.min_price > q.maxPrice) return false;
  return !matches || matches[entry.n] === 1;
}

export interface CatalogIndex {
  list(query: CatalogListQuery): Promise<{ total: number; items: IndexRow[] }>;
  /** A write happened (here or on another instance): the next list reloads. */
  stale(): void;
  /**
   * Only the stock or sales counts of these products changed (committed): they are read again,
   * when the next list asks (`settled`), and put in place. However many sales come between two
   * lists, one query reads them all; none is made while nobody lists.
   */
  stockChanged(productIds: readonly string[]): void;
  /**
   * Puts the stock changes heard so far in place (one round trip) and resolves; at once when none
   * is pending. Lists wait for it, so this instance's next list shows every change it heard of.
   */
  settled(): Promise<void>;
  /** A product's slug, when the index holds it (to drop its cached page). */
  slugOf(productId: string): string | undefined;
  /**
   * Whether a list asked with `query` (any of its pages) may show one of these products: it is on
   * sale and matches the list's category, prices and search (its stock aside: the in-stock filter
   * is what a change may turn). True when the index does not know (none loaded, or a product it
   * does not hold).
   */
  mayShow(query: CatalogListQuery, productIds: readonly string[]): boolean;
}

/** Lists that show these products may differ: some went in or out of stock, or their sales counts moved. */
export interface ListsChange {
  readonly productIds: readonly string[];
  /** Some went in or out of stock: every list showing them (its in-stock marks, its in-stock filter). */
  readonly soldOut: boolean;
  /** Some sales counts moved: the lists in an order that counts sales (SORTS_BY_SALES). */
  readonly reordered: boolean;
}

export interface CatalogIndexOptions {
  /**
   * The current stock (sum over the variants on sale) and sales count of the products asked for;
   * absent ones are gone (none on sale).
   */
  readonly loadCounts?: (productIds: string[]) => Promise<Map<string, ProductCounts>>;
  /** Called when an update changed what lists showing some products show (cached lists are wrong then). */
  readonly onListsChange?: (change: ListsChange) => void;
  /** A stock update failed (the database was away): the index is marked stale instead. */
  readonly onError?: (error: unknown) => void;
}

interface Round {
  readonly ids: Set<string>;
  readonly done: Promise<void>;
  readonly resolve: () => void;
}

function round(): Round {
  let resolve!: () => void;
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  return { ids: new Set(), done, resolve };
}

const SETTLED = Promise.resolve();

export function createCatalogIndex(
  load: () => Promise<IndexRow[]>,
  options: CatalogIndexOptions = {},
): CatalogIndex {
  let current: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  let generation = 0;
  // Stock updates run one round at a time, when a list asks; ids named meanwhile wait for the next
  // round, whose read starts after their change committed.
  let running: Round | null = null;
  let waiting: Round | null = null;

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

  /** Reads the stock and sales counts of `ids` and puts them in the snapshot kept (none kept: the next list loads afresh). */
  const refresh = async (ids: string[]): Promise<void> => {
    // A load that started before the change may not have seen it: update what it brings.
    if (!current && loading) await loading.catch(() => undefined);
    const target = current;
    if (!target) return;
    if (!options.loadCounts) {
      api.stale();
      return;
    }
    const startedAt = generation;
    const counts = await options.loadCounts(ids);
    // A full reload was asked for meanwhile: it reads the counts itself.
    if (startedAt !== generation || current !== target) return;
    const changed: string[] = [];
    let soldOut = false;
    let reordered = false;
    for (const id of ids) {
      const entry = target.byId.get(id);
      if (!entry) continue;
      const next = counts.get(id) ?? { stock: 0, soldCount: entry.row.sold_count };
      if (next.stock === entry.row.stock && next.soldCount === entry.row.sold_count) continue;
      const flipped = next.stock > 0 !== entry.row.stock > 0;
      const resold = next.soldCount !== entry.row.sold_count;
      entry.row = { ...entry.row, stock: next.stock, sold_count: next.soldCount };
      if (flipped || resold) changed.push(id);
      soldOut ||= flipped;
      reordered ||= resold;
    }
    if (reordered)
      for (const sort of SORTS_BY_SALES) target.sorted[sort] = [...target.sorted[sort]].sort(COMPARE[sort]);
    if (changed.length > 0) options.onListsChange?.({ productIds: changed, soldOut, reordered });
  };

  const schedule = (): void => {
    if (running || !waiting) return;
    const next = waiting;
    waiting = null;
    running = next;
    refresh([...next.ids])
      .catch((error: unknown) => {
        options.onError?.(error);
        api.stale();
      })
      .finally(() => {
        running = null;
        next.resolve();
        schedule();
      });
  };

  const settled = (): Promise<void> => {
    if (!running && !waiting) return SETTLED;
    const pending = Promise.all([running?.done, waiting?.done]).then(() => undefined);
    schedule();
    return pending;
  };

  const api: CatalogIndex = {
    async list(q) {
      await settled();
      const snap = await snapshot();
      const all = snap.sorted[q.sort];
      const matches = q.q ? matchesOf(snap, foldSearch(q.q)) : null;
      const { offset, limit } = pageWindow(q.page, q.pageSize);
      // One pass, counting every match and keeping only the page's (no array of all the matches).
      const items: IndexRow[] = [];
      let total = 0;
      for (const entry of all) {
        if (!passes(entry, q, matches) || (q.inStock && entry.row.stock <= 0)) continue;
        if (total >= offset && items.length < limit) items.push(entry.row);
        total += 1;
      }
      return { total, items };
    },
    stale() {
      generation += 1;
      current = null;
      loading = null;
    },
    stockChanged(productIds) {
      if (productIds.length === 0) return;
      waiting ??= round();
      for (const id of productIds) waiting.ids.add(id);
    },
    settled,
    slugOf(productId) {
      return current?.byId.get(productId)?.row.slug;
    },
    mayShow(q, productIds) {
      const snap = current;
      if (!snap) return true;
      const matches = q.q ? matchesOf(snap, foldSearch(q.q)) : null;
      return productIds.some((id) => {
        const entry = snap.byId.get(id);
        return !entry || passes(entry, q, matches);
      });
    },
  };
  return api;
}
