import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { CVS_BRAND_NAMES, CVS_BRANDS, cvsStoreLabel } from '@shop/shared/checkout';
import type { CvsMapReturn } from '@shop/shared/logistics';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { errorMessage } from '../../../lib/form.ts';
import { mapDevice } from '../../../lib/payment-form.ts';
import { logisticsOptionsQueryOptions, openStoreMap } from '../../../lib/store-map.ts';
import type { CheckoutForm } from '../schema.ts';

const clearStore = {
  storeId: '',
  storeName: '',
  storeAddress: '',
  storePhone: '',
  storeOutlying: false,
} as const;

/**
 * Convenience-store pickup: choose the chain, then the store on the chain's own store map
 * (ECPay's 電子地圖; the sandbox's when the shop runs without ECPay). The map brings the shopper
 * back here with the store; what was typed is kept (`beforeLeave` saves anything the page does not
 * keep by itself).
 */
export function StorePicker({
  form,
  returnTo,
  beforeLeave,
  pending = false,
}: {
  form: UseFormReturn<CheckoutForm>;
  returnTo: CvsMapReturn;
  beforeLeave?: () => void;
  pending?: boolean;
}) {
  const brand = form.watch('cvsBrand');
  const storeId = form.watch('storeId');
  const storeName = form.watch('storeName');
  const storeAddress = form.watch('storeAddress');
  const storePhone = form.watch('storePhone');
  const storeOutlying = form.watch('storeOutlying');
  const options = useQuery(logisticsOptionsQueryOptions());
  const brands = options.data?.brands ?? CVS_BRANDS;
  const [leaving, setLeaving] = useState(false);
  const [mapError, setMapError] = useState<string | null>(null);
  const error = mapError ?? form.formState.errors.storeId?.message;

  const open = async () => {
    setMapError(null);
    setLeaving(true);
    try {
      beforeLeave?.();
      await openStoreMap({ brand, returnTo, device: mapDevice() });
    } catch (e) {
      setMapError(errorMessage(e));
      setLeaving(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-ink">超商</legend>
        <div className="flex flex-wrap gap-2">
          {CVS_BRANDS.filter((b) => brands.includes(b)).map((b) => (
            <label
              key={b}
              className={cn(
                'flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-4',
                brand === b ? 'border-tea bg-tea-soft text-tea-dark' : 'border-line bg-surface',
              )}
            >
              <input
                type="radio"
                value={b}
                className="accent-tea"
                {...form.register('cvsBrand', {
                  onChange: () => {
                    setMapError(null);
                    for (const [key, value] of Object.entries(clearStore))
                      form.setValue(key as keyof CheckoutForm, value as never);
                  },
                })}
              />
              {CVS_BRAND_NAMES[b]}
            </label>
          ))}
        </div>
      </fieldset>
      {pending ? (
        <p className="rounded-md border border-line p-4 text-sm text-ink-muted" role="status">
          正在帶入您選擇的門市…
        </p>
      ) : storeId ? (
        <div
          className="flex flex-wrap items-start justify-between gap-3 rounded-md border border-tea/40 bg-tea-soft/50 p-4"
          aria-live="polite"
          aria-label="取貨門市"
        >
          <div className="flex flex-col gap-0.5">
            <p className="font-medium text-tea-dark">
              {cvsStoreLabel(brand, storeName)}
              <span className="ml-1 text-sm font-normal text-ink-muted">（店號 {storeId}）</span>
              {storeOutlying && (
                <span className="ml-2 rounded-full bg-danger/10 px-2 py-0.5 text-xs text-danger">
                  離島門市
                </span>
              )}
            </p>
            <p className="text-sm text-ink-muted">{storeAddress}</p>
            {storePhone && <p className="text-sm text-ink-muted">門市電話 {storePhone}</p>}
            {storeOutlying && (
              <p className="text-sm text-ink-muted">離島門市取貨需另加離島運費，金額已列在訂單摘要。</p>
            )}
          </div>
          <Button type="button" variant="ghost" size="sm" loading={leaving} onClick={() => void open()}>
            更換門市
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-2">
          <Button
            type="button"
            variant="secondary"
            className="self-start"
            loading={leaving}
            aria-describedby={error ? 'store-error' : 'store-hint'}
            onClick={() => void open()}
          >
            開啟 {CVS_BRAND_NAMES[brand]} 門市地圖
          </Button>
          <p id="store-hint" className="text-sm text-ink-muted">
            將前往超商的門市地圖選擇取貨門市，選好後會自動回到這裡，已填寫的資料都會保留。
          </p>
          {error && (
            <p id="store-error" role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
