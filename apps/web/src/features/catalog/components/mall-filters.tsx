import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { CategoryTreeResponse } from '@shop/shared/catalog';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/field.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Drawer } from '../../../components/ui/drawer.tsx';
import { paths } from '../../../config/paths.ts';
import { writeMallView, type MallView } from '../search-params.ts';

type Categories = CategoryTreeResponse['categories'] | undefined;

export interface MallFiltersProps {
  view: MallView;
  categories: Categories;
  onChange(next: Partial<MallView>): void;
}

const categoryItem = (active: boolean) =>
  cn(
    'flex min-h-10 w-full items-center justify-between rounded-md px-3 text-left text-[0.9375rem]',
    active ? 'bg-tea-soft font-semibold text-tea-dark' : 'text-ink hover:bg-ink/5',
  );

/** The mall's address for this view in another category (first page), so each category is a link to share or open in a new tab. */
function categoryHref(view: MallView, category: string | undefined): string {
  const search = writeMallView({ ...view, category, page: 1 }).toString();
  return search ? `${paths.mall()}?${search}` : paths.mall();
}

/** A price range as typed: whole numbers from 0, the lowest not above the highest; empty is no bound. */
function readPriceRange(min: string, max: string): { minPrice?: number; maxPrice?: number } | string {
  const lo = min.trim() === '' ? undefined : Number(min);
  const hi = max.trim() === '' ? undefined : Number(max);
  if (
    (lo !== undefined && (!Number.isInteger(lo) || lo < 0)) ||
    (hi !== undefined && (!Number.isInteger(hi) || hi < 0))
  )
    return '價格請輸入 0 以上的整數';
  if (lo !== undefined && hi !== undefined && lo > hi) return '最低價格不能高於最高價格';
  return { minPrice: lo, maxPrice: hi };
}

function PriceInputs({
  min,
  max,
  setMin,
  setMax,
  error,
  idPrefix,
}: {
  min: string;
  max: string;
  setMin(v: string): void;
  setMax(v: string): void;
  error: string | null;
  idPrefix: string;
}) {
  const described = error ? `${idPrefix}-price-error` : undefined;
  const input = 'tabular min-h-10 w-full min-w-0 rounded-md border border-line bg-surface px-3';
  return (
    <>
      <div className="flex items-center gap-2">
        <label className="sr-only" htmlFor={`${idPrefix}-min-price`}>
          最低價格
        </label>
        <input
          id={`${idPrefix}-min-price`}
          inputMode="numeric"
          placeholder="最低"
          value={min}
          onChange={(e) => setMin(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={input}
        />
        <span aria-hidden="true">–</span>
        <label className="sr-only" htmlFor={`${idPrefix}-max-price`}>
          最高價格
        </label>
        <input
          id={`${idPrefix}-max-price`}
          inputMode="numeric"
          placeholder="最高"
          value={max}
          onChange={(e) => setMax(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={input}
        />
      </div>
      {error && (
        <p id={described} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </>
  );
}

/** Category links, price range and stock filter beside the grid (desktop); every change lands in the URL at once. */
export function MallFilters({ view, categories, onChange }: MallFiltersProps) {
  // The price inputs apply on submit; keep what the shopper types until then.
  const [min, setMin] = useState(view.minPrice?.toString() ?? '');
  const [max, setMax] = useState(view.maxPrice?.toString() ?? '');
  const [priceError, setPriceError] = useState<string | null>(null);

  const applyPrice = (e: FormEvent) => {
    e.preventDefault();
    const range = readPriceRange(min, max);
    if (typeof range === 'string') return setPriceError(range);
    setPriceError(null);
    onChange(range);
  };

  const link = (slug: string | undefined, children: React.ReactNode) => {
    const active = view.category === slug;
    return (
      <Link
        to={categoryHref(view, slug)}
        className={categoryItem(active)}
        aria-current={active ? 'page' : undefined}
      >
        {children}
      </Link>
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="商品分類">
        <h2 className="mb-2 text-sm font-semibold tracking-wider text-ink-muted">分類</h2>
        <ul className="flex flex-col gap-0.5">
          <li>{link(undefined, '全部商品')}</li>
          {categories?.map((c) => (
            <li key={c.slug}>
              {link(
                c.slug,
                <>
                  <span>{c.name}</span>
                  <span className="tabular text-xs text-ink-muted">{c.productCount}</span>
                </>,
              )}
              {c.children.length > 0 && (
                <ul className="ml-3 flex flex-col gap-0.5 border-l border-line pl-2">
                  {c.children.map((k) => (
                    <li key={k.slug}>
                      {link(
                        k.slug,
                        <>
                          <span>{k.name}</span>
                          <span className="tabular text-xs text-ink-muted">{k.productCount}</span>
                        </>,
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </nav>

      <form
        onSubmit={applyPrice}
        className="flex flex-col gap-2"
        aria-labelledby="price-range-title"
        data-ignore-unsaved
      >
        <h2 id="price-range-title" className="text-sm font-semibold tracking-wider text-ink-muted">
          價格區間（NT$）
        </h2>
        <PriceInputs min={min} max={max} setMin={setMin} setMax={setMax} error={priceError} idPrefix="side" />
        <Button type="submit" variant="secondary" size="sm">
          套用價格
        </Button>
      </form>

      <Checkbox
        label="只看有現貨的商品"
        checked={Boolean(view.inStock)}
        onChange={(e) => onChange({ inStock: e.target.checked || undefined })}
      />
    </div>
  );
}

/**
 * The same filters on a phone, in a drawer: choices wait there until 套用 applies them all at once
 * (one new address, one history entry); 清除 empties the choices; closing keeps the view as it was.
 */
export function MallFilterDrawer({
  open,
  onClose,
  view,
  categories,
  onApply,
}: {
  open: boolean;
  onClose(): void;
  view: MallView;
  categories: Categories;
  onApply(next: Partial<MallView>): void;
}) {
  const formId = useId();
  const [category, setCategory] = useState(view.category);
  const [min, setMin] = useState(view.minPrice?.toString() ?? '');
  const [max, setMax] = useState(view.maxPrice?.toString() ?? '');
  const [inStock, setInStock] = useState(Boolean(view.inStock));
  const [priceError, setPriceError] = useState<string | null>(null);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const range = readPriceRange(min, max);
    if (typeof range === 'string') return setPriceError(range);
    onApply({ category, ...range, inStock: inStock || undefined });
    onClose();
  };
  const clear = () => {
    setCategory(undefined);
    setMin('');
    setMax('');
    setInStock(false);
    setPriceError(null);
  };

  const choice = (slug: string | undefined, name: string, count?: number, nested = false) => (
    <label
      key={slug ?? ''}
      className={cn(categoryItem(category === slug), 'cursor-pointer gap-3', nested && 'pl-6')}
    >
      <span className="flex items-center gap-3">
        <input
          type="radio"
          name="category"
          className="size-4 accent-tea"
          checked={category === slug}
          onChange={() => setCategory(slug)}
        />
        {name}
      </span>
      {count !== undefined && <span className="tabular text-xs text-ink-muted">{count}</span>}
    </label>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title="篩選條件"
      footer={
        <>
          <Button variant="secondary" className="flex-1" onClick={clear}>
            清除
          </Button>
          <Button type="submit" form={formId} className="flex-1">
            套用
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={apply} className="flex flex-col gap-6" data-ignore-unsaved>
        <fieldset className="flex flex-col gap-0.5">
          <legend className="mb-2 text-sm font-semibold tracking-wider text-ink-muted">分類</legend>
          {choice(undefined, '全部商品')}
          {categories?.flatMap((c) => [
            choice(c.slug, c.name, c.productCount),
            ...c.children.map((k) => choice(k.slug, k.name, k.productCount, true)),
          ])}
        </fieldset>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-semibold tracking-wider text-ink-muted">
            價格區間（NT$）
          </legend>
          <PriceInputs
            min={min}
            max={max}
            setMin={setMin}
            setMax={setMax}
            error={priceError}
            idPrefix="drawer"
          />
        </fieldset>
        <Checkbox label="只看有現貨的商品" checked={inStock} onChange={(e) => setInStock(e.target.checked)} />
      </form>
    </Drawer>
  );
}
