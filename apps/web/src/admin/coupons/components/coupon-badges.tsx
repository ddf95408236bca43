import { COUPON_STATE_LABELS, type CouponState } from '@shop/shared/admin-coupons';
import { groupDigits } from '@shop/shared/money';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const TONES: Record<CouponState, BadgeTone> = {
  running: 'success',
  paused: 'amber',
  upcoming: 'tea',
  expired: 'neutral',
};

/** 進行中 / 已暫停 / 未開始 / 已過期. */
export function CouponStateBadge({ state }: { state: CouponState }) {
  return <Badge tone={TONES[state]}>{COUPON_STATE_LABELS[state]}</Badge>;
}

/** 「7 / 50」 with a thin bar, or 「7 / 不限」. */
export function CouponUsage({
  used,
  limit,
  align = 'end',
}: {
  used: number;
  limit: number | null;
  align?: 'start' | 'end';
}) {
  const percent = limit ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  return (
    <span className={`inline-flex min-w-20 flex-col gap-1 ${align === 'end' ? 'items-end' : 'items-start'}`}>
      <span className="tabular whitespace-nowrap">
        {groupDigits(used)} / {limit === null ? '不限' : groupDigits(limit)}
      </span>
      {limit !== null && (
        <span className="block h-1.5 w-full overflow-hidden rounded-full bg-line" aria-hidden="true">
          <span
            className={`block h-full rounded-full ${percent >= 100 ? 'bg-danger' : 'bg-tea'}`}
            style={{ width: `${percent}%` }}
          />
        </span>
      )}
    </span>
  );
}
