import { useState, type FormEvent } from 'react';
import type { CategoryTreeResponse } from '@shop/shared/catalog';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/field.tsx';
import { cn } from '../../../components/ui/cn.ts';
import type { MallView } from '../search-params.ts';

export interface MallFiltersProps {
  view: MallView;
  categories: CategoryTreeResponse['categories'] | undefined;
  onChange(next: Partial<MallView>): void;
}

const categoryButton = (active: boolean) =>
  cn('flex min-h-10 w-full items-center justify-between rounded-md px-3 text-left text-[0.9375rem]', active ? 'bg-tea-soft font-semibold text-tea-dark' : 'text-ink hover:bg-ink/5');

/** Category, price range and stock filters; every change lands in the URL. */
export function MallFilters({ view, categories, onChange }: MallFiltersProps) {
  // The price inputs apply on submit; keep what the shopper types until then.
  const [min, setMin] = useState(view.minPrice?.toString() ?? '');
  const [max, setMax] = useState(view.maxPrice?.toString() ?? '');
  const [priceError, setPriceError] = useState<string | null>(null);

  const applyPrice = (e: FormEvent) => {
    e.preventDefault();
    const lo = min.trim() === '' ? undefined : Number(min);
    const hi = max.trim() === '' ? undefined : Number(max);
    if ((lo !== undefined && (!Number.isInteger(lo) || lo < 0)) || (hi !== undefined && (!Number.isInteger(hi) || hi < 0))) {
      setPriceError('價格請輸入 0 以上的整數');
      return;
    }
    if (lo !== undefined && hi !== undefined && lo > hi) {
      setPriceError('最低價格不能高於最高價格');
      return;
    }
    setPriceError(null);
    onChange({ minPrice: lo, maxPrice: hi });
  };

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="商品分類">
        <h2 className="mb-2 text-sm font-semibold tracking-wider text-ink-muted">分類</h2>
        <ul className="flex flex-col gap-0.5">
          <li>
            <button type="button" className={categoryButton(!view.category)} aria-current={!view.category} onClick={() => onChange({ category: undefined })}>
              全部商品
            </button>
          </li>
          {categories?.map((c) => (
            <li key={c.slug}>
              <button type="button" className={categoryButton(view.category === c.slug)} aria-current={view.category === c.slug} onClick={() => onChange({ category: c.slug })}>
                <span>{c.name}</span>
                <span className="tabular text-xs text-ink-muted">{c.productCount}</span>
              </button>
              {c.children.length > 0 && (
                <ul className="ml-3 flex flex-col gap-0.5 border-l border-line pl-2">
                  {c.children.map((k) => (
                    <li key={k.slug}>
                      <button type="button" className={categoryButton(view.category === k.slug)} aria-current={view.category === k.slug} onClick={() => onChange({ category: k.slug })}>
                        <span>{k.name}</span>
                        <span className="tabular text-xs text-ink-muted">{k.productCount}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </nav>

      <form onSubmit={applyPrice} className="flex flex-col gap-2" aria-labelledby="price-range-title" data-ignore-unsaved>
        <h2 id="price-range-title" className="text-sm font-semibold tracking-wider text-ink-muted">
          價格區間（NT$）
        </h2>
        <div className="flex items-center gap-2">
          <label className="sr-only" htmlFor="min-price">最低價格</label>
          <input id="min-price" inputMode="numeric" placeholder="最低" value={min} onChange={(e) => setMin(e.target.value)} aria-invalid={priceError ? true : undefined} aria-describedby={priceError ? 'price-error' : undefined} className="tabular min-h-10 w-full min-w-0 rounded-md border border-line bg-surface px-3" />
          <span aria-hidden="true">–</span>
          <label className="sr-only" htmlFor="max-price">最高價格</label>
          <input id="max-price" inputMode="numeric" placeholder="最高" value={max} onChange={(e) => setMax(e.target.value)} aria-invalid={priceError ? true : undefined} aria-describedby={priceError ? 'price-error' : undefined} className="tabular min-h-10 w-full min-w-0 rounded-md border border-line bg-surface px-3" />
        </div>
        {priceError && (
          <p id="price-error" role="alert" className="text-sm text-danger">
            {priceError}
          </p>
        )}
        <Button type="submit" variant="secondary" size="sm">
          套用價格
        </Button>
      </form>

      <Checkbox label="只看有現貨的商品" checked={Boolean(view.inStock)} onChange={(e) => onChange({ inStock: e.target.checked || undefined })} />
    </div>
  );
}
