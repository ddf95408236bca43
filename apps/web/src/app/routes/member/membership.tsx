import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CouponView } from '@shop/shared/membership';
import { formatTwd } from '@shop/shared/money';
import { effectiveFreeOver } from '@shop/shared/shipping';
import { Alert } from '../../../components/ui/alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { PageHeader } from '../../../components/ui/page.tsx';
import { Skeleton, SkeletonText } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { membershipQueryOptions } from '../../../features/member/api/member-api.ts';
import { CouponList, groupCoupons } from '../../../features/member/components/coupon-list.tsx';
import { useShippingRules } from '../../../features/checkout/api/shipping-rules.ts';
import { TierProgress } from '../../../features/member/components/tier-progress.tsx';

/** One group of 我的優惠券 under its heading with its count. */
function CouponGroup({
  title,
  coupons,
  empty,
}: {
  title: string;
  coupons: readonly CouponView[];
  empty: string;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h3 id={id} className="text-sm font-medium text-ink-muted">
        {title}
      </h3>
      <CouponList coupons={coupons} empty={empty} />
    </section>
  );
}

/** /member/membershipAndDiscounts: the tier table with the member's place, and their coupons. */
export default function MembershipPage() {
  const membership = useQuery(membershipQueryOptions());
  const shipping = useShippingRules();
  if (membership.isError) return <Alert tone="error">{errorMessage(membership.error)}</Alert>;
  if (!membership.data) return <SkeletonText lines={6} />;
  const m = membership.data;
  const { usable, upcoming, used, expired } = groupCoupons(m.coupons);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="會員等級與優惠"
        lead="等級依近 12 個月已付款的消費金額計算，付款、完成、取消或退款後會立即更新。"
      />
      <Card>
        <TierProgress data={m} />
      </Card>
      <section aria-labelledby="tiers-title">
        <h2 id="tiers-title" className="mb-3 text-lg font-semibold">
          等級權益
        </h2>
        <div className="relative overflow-x-auto rounded-lg border border-line bg-surface">
          <table className="w-full min-w-[480px] text-sm">
            <thead className="bg-paper text-left text-ink-muted">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  等級
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  近 12 個月消費
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  每筆折扣
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  免運門檻（宅配）
                </th>
              </tr>
            </thead>
            <tbody>
              {m.tiers.map((t) => (
                <tr
                  key={t.code}
                  className={cn(
                    'border-t border-line',
                    t.code === m.current.code && 'bg-tea-soft/60 font-medium',
                  )}
                  aria-current={t.code === m.current.code ? 'true' : undefined}
                >
                  <th scope="row" className="px-4 py-3 text-left">
                    {t.name}
                    {t.code === m.current.code && (
                      <span className="ml-2 text-xs text-tea">（您目前的等級）</span>
                    )}
                  </th>
                  <td className="tabular px-4 py-3">
                    {t.threshold === 0 ? '註冊即享' : `滿 ${formatTwd(t.threshold)}`}
                  </td>
                  <td className="px-4 py-3">{t.discountPercent > 0 ? `${t.discountPercent}%` : '—'}</td>
                  <td className="tabular px-4 py-3">
                    {shipping.data ? (
                      formatTwd(effectiveFreeOver(shipping.data.home.freeOver, t.freeShippingOver))
                    ) : shipping.isError ? (
                      '—'
                    ) : (
                      <Skeleton className="h-4 w-16" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="coupons-title" className="flex flex-col gap-6">
        <h2 id="coupons-title" className="text-lg font-semibold">
          我的優惠券
        </h2>
        <CouponGroup title={`可使用（${usable.length}）`} coupons={usable} empty="目前沒有可使用的優惠券。" />
        {upcoming.length > 0 && (
          <CouponGroup title={`即將開始（${upcoming.length}）`} coupons={upcoming} empty="" />
        )}
        <CouponGroup title={`已使用（${used.length}）`} coupons={used} empty="還沒有使用過優惠券。" />
        <CouponGroup
          title={`已過期或不適用（${expired.length}）`}
          coupons={expired}
          empty="沒有過期的優惠券。"
        />
      </section>
    </div>
  );
}
