import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatTaipeiDate } from '@shop/shared/taipei-time';
import { Alert } from '../../../components/ui/alert.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { marketingConsentQueryOptions, setMarketingConsent } from '../api/member-api.ts';

/**
 * The member's say over marketing mail (docs/product-rules.md#reminders): a switch that saves at
 * once. It shows what the server holds; while a change is saving the switch waits, and a refused
 * change leaves it as it was, with the reason below.
 */
export function MarketingMailSwitch() {
  const client = useQueryClient();
  const query = useQuery(marketingConsentQueryOptions());
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const labelId = useId();
  if (!query.data) return <SkeletonText lines={2} />;
  const { granted, at } = query.data;
  const toggle = async () => {
    setSaving(true);
    setError(null);
    try {
      const next = await setMarketingConsent(!granted);
      client.setQueryData(marketingConsentQueryOptions().queryKey, next);
      toast.success(
        next.granted ? '已開啟新品與優惠通知。' : '已關閉新品與優惠通知，之後不會再收到這類信件。',
      );
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <span id={labelId} className="text-sm font-medium">
            新品與優惠通知
          </span>
          <span className="text-xs text-ink-muted">
            新茶上市、優惠活動，以及購物車放著沒結帳時的提醒。訂單、付款與出貨通知不受影響。
          </span>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={granted}
          aria-labelledby={labelId}
          disabled={saving}
          onClick={() => void toggle()}
          className="-my-2 inline-flex h-11 w-14 shrink-0 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-tea disabled:opacity-60"
        >
          {/* The track and knob are drawn inside a 44 px target (touch targets ≥ 44 px). */}
          <span
            aria-hidden="true"
            className={`relative inline-flex h-7 w-12 items-center rounded-full transition-colors ${
              granted ? 'bg-tea' : 'bg-[#a9a196]'
            }`}
          >
            <span
              className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
                granted ? 'translate-x-6' : 'translate-x-1'
              }`}
            />
          </span>
        </button>
      </div>
      <p className="text-xs text-ink-muted" data-testid="marketing-consent-state">
        {granted
          ? `已開啟${at ? `（${formatTaipeiDate(at)} 同意）` : ''}`
          : `未開啟${at ? `（${formatTaipeiDate(at)} 關閉）` : ''}`}
      </p>
      {error && <Alert tone="error">{error}</Alert>}
    </div>
  );
}
