import type { CouponView } from '@shop/shared/membership';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { cn } from '../../../components/ui/cn.ts';

const STATE: Record<CouponView['state'], { label: string; tone: BadgeTone }> = {
  usable: { label: '可使用', tone: 'tea' },
  used: { label: '已使用', tone: 'neutral' },
  expired: { label: '已過期', tone: 'neutral' },
  'not-yet': { label: '尚未開始', tone: 'amber' },
  'not-for-tier': { label: '等級不符', tone: 'neutral' },
};

export function CouponCard({ coupon, action }: { coupon: CouponView; action?: React.ReactNode }) {
  const s = STATE[coupon.state];
  return (
    <li className={cn('flex flex-col gap-2 rounded-lg border border-dashed p-4', coupon.state === 'usable' ? 'border-tea/50 bg-tea-soft/40' : 'border-line bg-surface opacity-80')}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">
          {coupon.name}
          {coupon.personal && <span className="ml-2 text-xs text-amber">專屬</span>}
        </p>
        <Badge tone={s.tone}>{s.label}</Badge>
      </div>
      <p className="tabular font-mono text-sm tracking-wider text-tea-dark">{coupon.code}</p>
      <p className="text-sm text-ink-muted">{coupon.description}</p>
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
