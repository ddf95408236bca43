import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { SORT_LABELS, SORTS, type CatalogSort } from '@shop/shared/catalog-constants';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Container } from '../../../components/ui/page.tsx';
import { categoriesQueryOptions, productsQueryOptions } from '../api/catalog-api.ts';
import { MallFilterDrawer, MallFilters } from './mall-filters.tsx';
import { ProductCard, ProductCardSkeleton, ProductGrid } from './product-card.tsx';
import { hasFilters, readMallView, writeMallView, type MallView } from '../search-params.ts';
import { LoadError } from '../../../components/load-error.tsx';

function SearchBox({ initial, onSearch }: { initial: string; onSearch(q: string): void }) {
  const [query, setQuery] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(query.trim());
  };
  return (
    // While the site header's search is open (its box, named q, exists only then), this one gives
    // way: one search box on the page, not two. (This page's own <header> holds this form.)
    <form
      role="search"
      onSubmit={submit}
      className="flex w-full gap-2 sm:w-80 [body:has(header_input[name=q])_&]:hidden"
      data-ignore-unsaved
    >
      <label htmlFor="mall-search" className="sr-only">
        搜尋商品
      </label>
      <input
        id="mall-search"
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder="搜尋茶品、茶器或禮盒"
        maxLength={50}
        className="min-h-11 flex-1 rounded-md border border-line bg-surface px-3.5"
      />
      <Button type="submit">搜尋</Button>
    </form>
  );
}

export function MallPage() {
  const [params, setParams] = useSearchParams();
  const view = readMallView(params);
  const products = useQuery(productsQueryOptions(view));
  const categories = useQuery(categoriesQueryOptions());
  const [filtersOpen, setFiltersOpen] = useState(false);

  /** Every change is a new history entry, so Back returns to the previous view. */
  const update = (next: Partial<MallView>) => {
    const merged: MallView = { ...view, ...next, page: next.page ?? 1 };
    setParams(writeMallView(merged));
    if (next.page) window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  const categoryName = view.category
    ? categories.data?.categories.flatMap((c) => [c, ...c.children]).find((c) => c.slug === view.category)
        ?.name
    : undefined;
  // While another view loads, the previous view's count and cards are not shown under the new
  // heading: the grid keeps its place with placeholders.
  const data = products.isPlaceholderData ? undefined : products.data;

  return (
    <Container className="py-8 sm:py-12">
      <header className="flex flex-col gap-4 border-b border-line pb-6 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm tracking-widest text-tea">山嵐茶事線上商城</p>
          <h1 className="font-serif text-2xl text-ink sm:text-3xl">{categoryName ?? '全部商品'}</h1>
          {view.q && <p className="mt-1 text-ink-muted">搜尋「{view.q}」的結果</p>}
        </div>
        {/* Keyed by the URL's query, so Back and Forward show the words of that view. */}
        <SearchBox
          key={view.q ?? ''}
          initial={view.q ?? ''}
          onSearch={(q) => update({ q: q || undefined })}
        />
      </header>

      <div className="mt-6 grid gap-8 lg:grid-cols-[220px_1fr]">
        <aside>
          {/* On a phone the filters open in a drawer and apply together (套用); beside the grid they apply at once. */}
          <button
            type="button"
            className="flex min-h-11 w-full items-center justify-between rounded-md border border-line bg-surface px-4 lg:hidden"
            aria-haspopup="dialog"
            onClick={() => setFiltersOpen(true)}
          >
            <span>篩選條件{hasFilters(view) ? '（已套用）' : ''}</span>
            <svg
              viewBox="0 0 20 20"
              className="size-5 text-ink-muted"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              aria-hidden="true"
            >
              <path d="M3 5h14M6 10h8M8.5 15h3" />
            </svg>
          </button>
          <div className="hidden lg:block">
            <MallFilters
              key={`${view.minPrice}-${view.maxPrice}`}
              view={view}
              categories={categories.data?.categories}
              onChange={update}
            />
          </div>
          {filtersOpen && (
            <MallFilterDrawer
              open
              onClose={() => setFiltersOpen(false)}
              view={view}
              categories={categories.data?.categories}
              onApply={update}
            />
          )}
        </aside>

        <section aria-labelledby="results-title" aria-busy={products.isFetching}>
          <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
            <h2 id="results-title" className="text-sm text-ink-muted" aria-live="polite">
              {data ? `共 ${data.total} 件商品` : '載入商品中…'}
            </h2>
            <div className="flex items-center gap-2">
              <label htmlFor="mall-sort" className="text-sm text-ink-muted">
                排序
              </label>
              <select
                id="mall-sort"
                value={view.sort}
                onChange={(e) => update({ sort: e.target.value as CatalogSort })}
                className="min-h-10 rounded-md border border-line bg-surface px-3"
              >
                {SORTS.map((s) => (
                  <option key={s} value={s}>
                    {SORT_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
          </div>

          {products.isError && !data ? (
            <LoadError query={products} title="商品暫時無法載入" />
          ) : !data ? (
            <ProductGrid>
              {Array.from({ length: 8 }, (_, i) => (
                <li key={i}>
                  <ProductCardSkeleton />
                </li>
              ))}
            </ProductGrid>
          ) : data.items.length === 0 ? (
            <EmptyState
              title={data.total > 0 ? '這一頁沒有商品了' : '找不到符合條件的商品'}
              description={
                data.total > 0 ? '請回到第一頁看看。' : '換個關鍵字或放寬篩選條件，也可以看看全部商品。'
              }
              action={
                <Button
                  variant="secondary"
                  onClick={() => (data.total > 0 ? update({ page: 1 }) : setParams(new URLSearchParams()))}
                >
                  {data.total > 0 ? '回到第一頁' : '清除所有條件'}
                </Button>
              }
            />
          ) : (
            <div>
              <ProductGrid>
                {data.items.map((p, i) => (
                  <li key={p.id}>
                    {/* The first row (two cards on a phone) holds the page's largest paint. */}
                    <ProductCard product={p} priority={i < 2} heart="member" />
                  </li>
                ))}
              </ProductGrid>
              <Pagination
                page={view.page}
                totalPages={data.totalPages}
                onPage={(p) => update({ page: p })}
                className="mt-10"
              />
            </div>
          )}
        </section>
      </div>
    </Container>
  );
}
