import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { CVS_BRANDS, CVS_BRAND_NAMES, cvsStoreLabel } from '@shop/shared/checkout';
import { cn } from '../../../components/ui/cn.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { storesQueryOptions } from '../api/checkout-api.ts';
import type { CheckoutForm } from '../schema.ts';

/**
 * Convenience-store pickup: choose the chain, search by area or store name, pick a store. The
 * store's id, name and address go onto the order. (A demo list; ECPay's store map can replace it.)
 */
export function StorePicker({ form }: { form: UseFormReturn<CheckoutForm> }) {
  const brand = form.watch('cvsBrand');
  const storeId = form.watch('storeId');
  const storeName = form.watch('storeName');
  const storeAddress = form.watch('storeAddress');
  const [query, setQuery] = useState('');
  const q = useDebouncedValue(query.trim(), 300);
  const stores = useQuery(storesQueryOptions(brand, q));
  const error = form.formState.errors.storeId?.message;
  const choose = (s: { id: string; name: string; address: string }) => {
    form.setValue('storeId', s.id, { shouldValidate: true, shouldDirty: true });
    form.setValue('storeName', s.name, { shouldDirty: true });
    form.setValue('storeAddress', s.address, { shouldDirty: true });
  };
  return (
    <div className="flex flex-col gap-4">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-ink">超商</legend>
        <div className="flex flex-wrap gap-2">
          {CVS_BRANDS.map((b) => (
            <label key={b} className={cn('flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-4', brand === b ? 'border-tea bg-tea-soft text-tea-dark' : 'border-line bg-surface')}>
              <input
                type="radio"
                value={b}
                className="accent-tea"
                {...form.register('cvsBrand', {
                  onChange: () => {
                    form.setValue('storeId', '');
                    form.setValue('storeName', '');
                    form.setValue('storeAddress', '');
                  },
                })}
              />
              {CVS_BRAND_NAMES[b]}
            </label>
          ))}
        </div>
      </fieldset>
      {storeId ? (
        <div className="flex flex-wrap items-start justify-between gap-3 rounded-md border border-tea/40 bg-tea-soft/50 p-4" aria-live="polite">
          <div>
            <p className="font-medium text-tea-dark">
              {cvsStoreLabel(brand, storeName)}（店號 {storeId}）
            </p>
            <p className="text-sm text-ink-muted">{storeAddress}</p>
          </div>
          <button type="button" className="min-h-11 text-sm text-tea underline underline-offset-4" onClick={() => form.setValue('storeId', '', { shouldValidate: true })}>
            更換門市
          </button>
        </div>
      ) : (
        <div className="flex flex-col gap-2">
          <label htmlFor="store-search" className="text-sm font-medium text-ink">
            搜尋取貨門市
          </label>
          <input
            id="store-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="輸入縣市、鄉鎮或門市名稱，例如：鹿谷"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'store-error' : undefined}
            className="min-h-11 rounded-md border border-line bg-surface px-3.5"
          />
          {error && (
            <p id="store-error" role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
          <ul className="max-h-72 divide-y divide-line overflow-y-auto rounded-md border border-line bg-surface" aria-label="門市列表" aria-busy={stores.isFetching}>
            {stores.data?.stores.length === 0 && <li className="p-4 text-sm text-ink-muted">找不到符合的門市，請換個關鍵字。</li>}
            {stores.data?.stores.map((s) => (
              <li key={s.id}>
                <button type="button" className="flex w-full flex-col items-start px-4 py-3 text-left hover:bg-tea-soft/60" onClick={() => choose(s)}>
                  <span className="font-medium">{s.name}</span>
                  <span className="text-sm text-ink-muted">{s.address}</span>
                </button>
              </li>
            ))}
            {!stores.data && <li className="p-4 text-sm text-ink-muted">載入門市中…</li>}
          </ul>
        </div>
      )}
    </div>
  );
}
