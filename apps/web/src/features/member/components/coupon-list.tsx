import type { CouponView } from '@shop/shared/membership';
import { formatTaipeiDate } from '@shop/shared/taipei-time';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { cn } from '../../../components/ui/cn.ts';

const STATE: Record<CouponView['state'], { label: string; tone: BadgeTone }> = {
  usable: { label: '可使用', tone: 'tea' },
  used: { label: '已使用', tone: 'neutral' },
  expired: { label: '已過期', tone: 'neutral' },
  'not-yet': { label: '尚未開始', tone: 'amber' },
  'not-for-tier': { label: '等級不符', tone: 'neutral' },
};

/**
 * The member's coupons as 我的優惠券 lists them: usable today, starting later (never counted as
 * usable: checkout would refuse them today), used, and expired or not for the member's tier.
 */
export function groupCoupons(coupons: readonly CouponView[]) {
  return {
    usable: coupons.filter((c) => c.state === 'usable'),
    upcoming: coupons.filter((c) => c.state === 'not-yet'),
    used: coupons.filter((c) => c.state === 'used'),
    expired: coupons.filter((c) => c.state === 'expired' || c.state === 'not-for-tier'),
  };
}

export function CouponCard({ coupon, action }: { coupon: CouponView; action?: React.ReactNode }) {
  const s = STATE[coupon.state];
  return (
    <li
      className={cn(
        'flex flex-col gap-2 rounded-lg border border-dashed p-4',
        coupon.state === 'usable' ? 'border-tea/50 bg-tea-soft/40' : 'border-line bg-surface opacity-80',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">
          {coupon.name}
          {coupon.personal && <span className="ml-2 text-xs text-amber">專屬</span>}
        </p>
        <Badge tone={s.tone}>{s.label}</Badge>
      </div>
      <p className="tabular font-mono text-sm tracking-wider text-tea-dark">{coupon.code}</p>
      <p className="text-sm text-ink-muted">{coupon.description}</p>
      {coupon.state === 'not-yet' && (
        <p className="tabular text-sm text-[#8a5a2a]">{formatTaipeiDate(coupon.startsAt)} 起可使用</p>
      )}
      {action}
    </li>
  );
}

export function CouponList({ coupons, empty }: { coupons: readonly CouponView[]; empty: string }) {
  if (coupons.length === 0) return <p className="text-sm text-ink-muted">{empty}</p>;
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {coupons.map((c) => (
        <CouponCard key={c.code} coupon={c} />
      ))}
    </ul>
  );
}
