import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { USER_ROLE_NAMES, type MemberDetail } from '@shop/shared/admin-members';
import { adminPath } from '@shop/shared/admin-routes';
import { cvsStoreLabel } from '@shop/shared/checkout';
import type { CouponView } from '@shop/shared/membership';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { memberQuery } from '../queries.ts';
import { MemberStatusDialog } from '../components/member-status-dialog.tsx';
import { useAdminMe, useCan } from '../../shared/use-admin-me.ts';
import { OrderStatusBadge } from '../../../features/orders/components/order-parts.tsx';
import { MemberStatusBadge } from '../components/member-status-badge.tsx';
import { formatTaipeiDate, formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { PAYMENT_METHOD_SHORT } from '@shop/shared/payment-methods';

const COUPON_STATES: Record<CouponView['state'], { label: string; tone: BadgeTone }> = {
  usable: { label: '可使用', tone: 'success' },
  used: { label: '已使用', tone: 'neutral' },
  expired: { label: '已失效', tone: 'neutral' },
  'not-yet': { label: '尚未開始', tone: 'amber' },
  'not-for-tier': { label: '等級不符', tone: 'amber' },
};

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {action}
      </div>
      {children}
    </Card>
  );
}

function Profile({ m }: { m: MemberDetail }) {
  const p = m.profile;
  const rows: Array<[string, ReactNode]> = [
    [
      '電子郵件',
      <span className="[overflow-wrap:anywhere]">
        {p.email}
        {!p.emailVerified && (
          <Badge tone="amber" className="ml-2">
            尚未驗證
          </Badge>
        )}
      </span>,
    ],
    ['手機', p.phone ?? '未填寫'],
    ['生日', p.birthday ? p.birthday.replaceAll('-', '/') : '未填寫'],
    ['帳號類型', USER_ROLE_NAMES[p.role]],
    ['加入日期', formatTaipeiDate(p.joinedAt)],
    ['狀態', <MemberStatusBadge disabledAt={p.disabledAt} />],
    ['會員編號', <span className="text-xs break-all text-ink-muted">{p.id}</span>],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-5 gap-y-2 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-ink-muted">{k}</dt>
          <dd className="min-w-0">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Tier({ m }: { m: MemberDetail }) {
  const { current, next, spend, toNext } = m.membership;
  const percent = next
    ? Math.min(
        100,
        Math.round(((spend - current.threshold) / Math.max(1, next.threshold - current.threshold)) * 100),
      )
    : 100;
  return (
    <div className="flex flex-col gap-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-serif text-xl text-tea-dark">{current.name}</p>
        <p className="text-ink-muted">
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
        <div className="h-full rounded-full bg-tea" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-ink-muted">
        {next ? `再消費 ${formatTwd(toNext)} 可升級為${next.name}。` : '已是最高等級。'}
      </p>
      <p>
        目前優惠：{current.discountPercent > 0 ? `每筆訂單 ${current.discountPercent}% 折扣` : '無等級折扣'}
        {current.freeShippingOver !== null ? `，滿 ${formatTwd(current.freeShippingOver)} 免運費` : ''}。
      </p>
    </div>
  );
}

function Orders({ m }: { m: MemberDetail }) {
  if (m.orders.length === 0) return <p className="text-sm text-ink-muted">這位會員還沒有訂單。</p>;
  return (
    <div className="relative -mx-5 overflow-x-auto sm:-mx-6">
      <table className="w-full text-sm">
        <caption className="sr-only">最近的訂單，共 {m.orderCount} 筆</caption>
        <thead className="text-ink-muted">
          <tr>
            <th scope="col" className="px-5 py-2 text-left font-medium whitespace-nowrap sm:px-6">
              訂單編號與成立時間
            </th>
            <th scope="col" className="px-3 py-2 text-left font-medium whitespace-nowrap">
              付款
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
              件數
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
              金額
            </th>
            <th scope="col" className="px-5 py-2 text-left font-medium whitespace-nowrap sm:px-6">
              狀態
            </th>
          </tr>
        </thead>
        <tbody>
          {m.orders.map((o) => (
            <tr key={o.orderNo} className="border-t border-line">
              <td className="px-5 py-2.5 sm:px-6">
                <Link
                  to={adminPath.orderDetail(o.orderNo)}
                  className="tabular font-medium whitespace-nowrap text-tea underline-offset-4 hover:underline"
                >
                  {o.orderNo}
                </Link>
                <span className="tabular block text-xs whitespace-nowrap text-ink-muted">
                  {formatTaipeiDateTime(o.createdAt)}
                </span>
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap">{PAYMENT_METHOD_SHORT[o.paymentMethod]}</td>
              <td className="tabular px-3 py-2.5 text-right">{o.itemCount}</td>
              <td className="tabular px-3 py-2.5 text-right whitespace-nowrap">{formatTwd(o.total)}</td>
              <td className="px-5 py-2.5 whitespace-nowrap sm:px-6">
                <OrderStatusBadge status={o.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Addresses({ m }: { m: MemberDetail }) {
  if (m.addresses.length === 0) return <p className="text-sm text-ink-muted">沒有儲存的地址。</p>;
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {m.addresses.map((a) => (
        <li key={a.id} className="flex flex-col gap-1 rounded-md border border-line p-3 text-sm">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {a.label || (a.kind === 'home' ? '宅配地址' : '超商取貨')}
            <Badge tone="neutral">{a.kind === 'home' ? '宅配' : '超商'}</Badge>
            {a.isDefault && <Badge tone="tea">預設</Badge>}
          </p>
          <p>
            {a.recipientName}・<span className="tabular">{a.phone}</span>
          </p>
          <p className="text-ink-muted">
            {a.kind === 'home'
              ? `${a.postalCode ?? ''} ${a.city ?? ''}${a.district ?? ''}${a.address ?? ''}`.trim()
              : `${cvsStoreLabel(a.cvsBrand, a.storeName)}（${a.storeId ?? ''}）${a.storeAddress ? `・${a.storeAddress}` : ''}`}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Coupons({ m }: { m: MemberDetail }) {
  if (m.coupons.length === 0) return <p className="text-sm text-ink-muted">沒有可領用的優惠券。</p>;
  return (
    <ul className="grid gap-3 text-sm sm:grid-cols-2">
      {m.coupons.map((c) => (
        <li key={c.code} className="flex flex-col gap-1 rounded-md border border-line p-3">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{c.name}</span>
            <Badge tone={COUPON_STATES[c.state].tone}>{COUPON_STATES[c.state].label}</Badge>
            {c.personal && <Badge tone="amber">專屬</Badge>}
          </p>
          <p className="font-mono text-xs text-ink-muted">{c.code}</p>
          <p className="text-ink-muted">{c.description}</p>
        </li>
      ))}
    </ul>
  );
}

/** /admin/members/:memberId: a member's profile, tier, addresses, orders and coupons; disable or enable with a reason. */
export default function MemberDetailPage() {
  const { memberId = '' } = useParams();
  const location = useLocation();
  const listSearch = (location.state as { listSearch?: string } | null)?.listSearch ?? '';
  const me = useAdminMe();
  const canWrite = useCan('members.write');
  const query = useQuery(memberQuery(memberId));
  const [dialog, setDialog] = useState(false);
  const back = { to: `${adminPath.members()}${listSearch}`, label: '會員列表' };

  if (query.isError) {
    const notFound =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <AdminPage title="會員資料" back={back}>
        {notFound ? (
          <EmptyState title="找不到這位會員" description="網址可能有誤，或帳號已經刪除。" />
        ) : (
          <LoadError title="會員資料暫時無法載入" query={query} />
        )}
      </AdminPage>
    );
  }
  if (!query.data) {
    return (
      <AdminPage title="會員資料" back={back}>
        <div role="status" aria-label="載入中" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <Card>
            <SkeletonText lines={6} />
          </Card>
          <Card>
            <SkeletonText lines={6} />
          </Card>
        </div>
      </AdminPage>
    );
  }

  const m = query.data;
  const p = m.profile;
  const isSelf = me.data?.uid === p.id;
  const allowed = canWrite && !isSelf && (p.role === 'customer' || me.data?.role === 'owner');
  return (
    <AdminPage
      title={p.name}
      back={back}
      description={p.email}
      actions={
        allowed ? (
          p.disabledAt ? (
            <Button onClick={() => setDialog(true)}>重新啟用帳號</Button>
          ) : (
            <Button variant="danger" onClick={() => setDialog(true)}>
              停用帳號
            </Button>
          )
        ) : undefined
      }
    >
      {p.disabledAt && (
        <Alert tone="warning" title={`這個帳號已於 ${formatTaipeiDateTime(p.disabledAt)} 停用`}>
          {p.disabledReason ? `原因：${p.disabledReason}` : '停用期間無法登入或下單。'}
        </Alert>
      )}
      {canWrite && !allowed && !isSelf && p.role !== 'customer' && (
        <p className="text-sm text-ink-muted">這是管理後台帳號，只有店主可以停用或啟用。</p>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        {/* Profile and tier first on phones; beside the orders on wide screens. */}
        <div className="flex min-w-0 flex-col gap-6 lg:col-start-2 lg:row-start-1">
          <Section title="基本資料">
            <Profile m={m} />
          </Section>
          <Section title="會員等級">
            <Tier m={m} />
          </Section>
        </div>
        <div className="flex min-w-0 flex-col gap-6 lg:col-start-1 lg:row-start-1">
          <Section
            title="最近的訂單"
            action={
              <span className="text-sm text-ink-muted">
                共 {m.orderCount} 筆{m.orderCount > m.orders.length ? `，顯示最近 ${m.orders.length} 筆` : ''}
              </span>
            }
          >
            <Orders m={m} />
          </Section>
          <Section title="常用地址">
            <Addresses m={m} />
          </Section>
          <Section title="持有的優惠券">
            <Coupons m={m} />
          </Section>
        </div>
      </div>
      {allowed && (
        <MemberStatusDialog
          member={{ id: p.id, name: p.name, disabledAt: p.disabledAt }}
          open={dialog}
          onClose={() => setDialog(false)}
        />
      )}
    </AdminPage>
  );
}
