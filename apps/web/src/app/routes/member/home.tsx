import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatTwd } from '@shop/shared/money';
import { Card } from '../../../components/ui/card.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useUserStore } from '../../../features/auth/stores/user-store.ts';
import { ResendVerificationButton } from '../../../features/auth/components/resend-verification.tsx';
import { AddressBook } from '../../../features/checkout/components/address-book.tsx';
import { membershipQueryOptions } from '../../../features/member/api/member-api.ts';
import { ProfileCard } from '../../../features/member/components/profile-card.tsx';
import { MarketingMailSwitch } from '../../../features/member/components/marketing-mail-switch.tsx';
import { TierProgress } from '../../../features/member/components/tier-progress.tsx';
import { AccountDataCard } from '../../../features/member/components/account-data-card.tsx';
import { ReauthDialog } from '../../../features/auth/components/reauth-dialog.tsx';
import { forgetSignedIn } from '../../../features/auth/session.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { ordersQueryOptions } from '../../../features/orders/api/orders-api.ts';
import {
  OrderActions,
  OrderStatusBadge,
  formatDateTime,
} from '../../../features/orders/components/order-parts.tsx';
import { orderQueryOptions } from '../../../features/orders/api/orders-api.ts';
import { taipeiHour } from '@shop/shared/taipei-time';

// 登入方式 and the notice after a trip to LINE or Google load after the page (the first load of `/`
// lists every page's own files and must not grow).
const SignInMethods = lazy(() =>
  import('../../../features/auth/components/sign-in-methods.tsx').then((m) => ({ default: m.SignInMethods })),
);
const SocialProblemNotice = lazy(() =>
  import('../../../features/auth/components/social-sign-in-buttons.tsx').then((m) => ({
    default: m.SocialProblemNotice,
  })),
);
const noSubscription = () => () => {};

function greeting(now = new Date()): string {
  const hour = taipeiHour(now);
  return hour < 11 ? '早安' : hour < 18 ? '午安' : '晚安';
}

function AwaitingPayment({ orderNo }: { orderNo: string }) {
  const order = useQuery(orderQueryOptions(orderNo));
  if (!order.data) return null;
  return <OrderActions order={order.data} />;
}

const LINKS = [
  { to: paths.orderList(), label: '訂單查詢', text: '查看所有訂單與發票資訊' },
  { to: paths.orderTracking(), label: '配送追蹤', text: '出貨後即時更新配送進度' },
  { to: paths.membershipAndDiscounts(), label: '會員等級與優惠', text: '等級權益與我的優惠券' },
  { to: paths.mall(), label: '線上商城', text: '挑選當季好茶與茶器' },
] as const;

/** /member: where the member stands and what needs their attention. */
export default function MemberHomePage() {
  const navigate = useNavigate();
  const user = useUserStore((s) => s.userInfo);
  const [params] = useSearchParams();
  // Read once hydrated: the server renders the page without it.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const social = hydrated ? params.get('social') : null;
  const membership = useQuery(membershipQueryOptions());
  const recent = useQuery(ordersQueryOptions('all', 1));
  const awaiting = useQuery(ordersQueryOptions('pending_payment', 1));
  return (
    <div className="flex flex-col gap-6">
      <header>
        <p className="text-sm tracking-widest text-tea">會員中心</p>
        <h1 className="font-serif text-2xl sm:text-3xl">
          {greeting()}，{user?.displayName ?? '會員'}
        </h1>
      </header>

      {social && (
        <Suspense fallback={null}>
          <SocialProblemNotice social={social} className="" />
        </Suspense>
      )}

      <Card>
        <h2 className="mb-4 text-lg font-semibold">會員等級</h2>
        {membership.data ? <TierProgress data={membership.data} /> : <Skeleton className="h-20" />}
        <Link to={paths.membershipAndDiscounts()} className={`${textLinkClass} mt-3 inline-block text-sm`}>
          查看等級權益與優惠券 →
        </Link>
      </Card>

      {awaiting.data && awaiting.data.items.length > 0 && (
        <Card className="border-amber/50">
          <h2 className="mb-3 text-lg font-semibold">待付款訂單</h2>
          <ul className="flex flex-col gap-4">
            {awaiting.data.items.map((o) => (
              <li
                key={o.orderNo}
                className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between"
              >
                <Link to={paths.orderDetail(o.orderNo)} className="flex flex-col">
                  <span className="tabular font-medium">{o.orderNo}</span>
                  <span className="text-sm text-ink-muted">
                    {formatDateTime(o.createdAt)}・{formatTwd(o.total)}
                  </span>
                </Link>
                <AwaitingPayment orderNo={o.orderNo} />
              </li>
            ))}
          </ul>
        </Card>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <div className="mb-3 flex items-center justify-between">
            <h2 className="text-lg font-semibold">最近的訂單</h2>
            <Link to={paths.orderList()} className={`${textLinkClass} text-sm`}>
              全部訂單
            </Link>
          </div>
          {!recent.data ? (
            <Skeleton className="h-24" />
          ) : recent.data.items.length === 0 ? (
            <div className="flex flex-col items-start gap-3 text-sm text-ink-muted">
              還沒有訂單。
              <ButtonLink to={paths.mall()} size="sm">
                前往商城
              </ButtonLink>
            </div>
          ) : (
            <ul className="divide-y divide-line">
              {recent.data.items.slice(0, 3).map((o) => (
                <li key={o.orderNo}>
                  <Link
                    to={paths.orderDetail(o.orderNo)}
                    className="flex items-center justify-between gap-3 py-3 hover:text-tea"
                  >
                    <span className="flex flex-col">
                      <span className="text-sm font-medium">
                        {o.firstItemName}
                        {o.itemCount > 1 ? ` 等 ${o.itemCount} 件` : ''}
                      </span>
                      <span className="tabular text-xs text-ink-muted">
                        {o.orderNo}・{formatDateTime(o.createdAt)}
                      </span>
                    </span>
                    <span className="flex flex-col items-end gap-1">
                      <OrderStatusBadge status={o.status} />
                      <span className="tabular text-sm">{formatTwd(o.total)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <h2 className="mb-3 text-lg font-semibold">會員資料</h2>
          <ProfileCard />
          <p className="mt-4 flex flex-wrap items-center gap-3 text-sm">
            電子郵件
            {user?.emailVerified ? (
              <span className="text-success">已驗證</span>
            ) : (
              <>
                <span className="text-[#8a5a2a]">尚未驗證</span>
                <ResendVerificationButton />
              </>
            )}
          </p>
          <div className="mt-4 border-t border-line pt-4">
            <MarketingMailSwitch />
          </div>
        </Card>
      </div>

      <Card>
        <h2 className="mb-3 text-lg font-semibold">登入方式</h2>
        <Suspense fallback={<Skeleton className="h-28" />}>
          <SignInMethods />
        </Suspense>
      </Card>

      <Card>
        <h2 className="mb-3 text-lg font-semibold">收件地址與取貨門市</h2>
        <AddressBook />
      </Card>

      <nav aria-label="會員功能" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {LINKS.map((l) => (
          <Link
            key={l.to}
            to={l.to}
            className="flex flex-col gap-1 rounded-lg border border-line bg-surface p-4 hover:border-tea"
          >
            <span className="font-medium text-tea-dark">{l.label}</span>
            <span className="text-sm text-ink-muted">{l.text}</span>
          </Link>
        ))}
      </nav>

      <AccountDataCard
        reauth={(props) => (
          <ReauthDialog {...props} title="確認密碼" lead="為了保護您的資料，請先輸入目前的密碼。" />
        )}
        onDeleted={async () => {
          // Leave the member pages first, so nothing on them asks the API again as a signed-out visitor.
          await navigate(paths.landing(), { replace: true });
          forgetSignedIn();
          toast.info('您的會員帳號已刪除，謝謝您曾經的支持。');
        }}
      />
    </div>
  );
}
