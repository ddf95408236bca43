import type { MembershipResponse } from '@shop/shared/membership';
import { formatTwd } from '@shop/shared/money';

/** Where the member stands: tier, spending of the last 12 months, and how far the next tier is. */
export function TierProgress({ data }: { data: MembershipResponse }) {
  const { current, next, spend, toNext } = data;
  const percent = next
    ? Math.min(
        100,
        Math.round(((spend - current.threshold) / Math.max(1, next.threshold - current.threshold)) * 100),
      )
    : 100;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-serif text-xl text-tea-dark" data-testid="tier-name">
          {current.name}
        </p>
        <p className="text-sm text-ink-muted">
          近 12 個月消費 <span className="tabular font-medium text-ink">{formatTwd(spend)}</span>
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={next ? `距離${next.name}的進度` : '已是最高等級'}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2.5 overflow-hidden rounded-full bg-line"
      >
        <div
          className="h-full rounded-full bg-tea transition-[width] duration-500"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-sm text-ink-muted" data-testid="tier-to-next">
        {next
          ? `再消費 ${formatTwd(toNext)} 即可升級為${next.name}，享 ${next.discountPercent}% 折扣${next.freeShippingOver ? `、滿 ${formatTwd(next.freeShippingOver)} 免運` : ''}。`
          : '您已是最高等級會員，感謝您長久以來的支持。'}
      </p>
      {current.discountPercent > 0 && (
        <p className="text-sm text-tea-dark">
          目前享有：每筆訂單 {current.discountPercent}% 折扣
          {current.freeShippingOver ? `，滿 ${formatTwd(current.freeShippingOver)} 免運費` : ''}。
        </p>
      )}
    </div>
  );
}
