import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import {
  COUPON_VALIDITY,
  COUPON_VALIDITY_LABELS,
  couponValueText,
  type CouponListQuery,
  type CouponRow,
} from '@shop/shared/admin-coupons';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTwd } from '@shop/shared/money';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { couponsQuery } from '../queries.ts';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { tiersQuery } from '../../members/queries.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { SearchBox } from '../../shared/search-box.tsx';
import { CouponStateBadge, CouponUsage } from '../components/coupon-badges.tsx';
import { formatTaipeiDate } from '@shop/shared/taipei-time';

const DEFAULTS = { q: '', status: '', validity: '', scope: '' };

function toApiQuery(f: typeof DEFAULTS, page: number): Partial<CouponListQuery> {
  return {
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(f.status === 'active' || f.status === 'paused' ? { status: f.status } : {}),
    ...(COUPON_VALIDITY.includes(f.validity as never)
      ? { validity: f.validity as CouponListQuery['validity'] }
      : {}),
    ...(f.scope === 'shared' || f.scope === 'personal' ? { scope: f.scope } : {}),
    page,
  };
}

/** /admin/coupons: every coupon with its state and usage; the owner creates and edits them. */
export default function CouponsPage() {
  const location = useLocation();
  const canWrite = useCan('coupons.write');
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const query = useQuery(couponsQuery(toApiQuery(filters, page)));
  const tiers = useQuery(tiersQuery());
  const tierName = (code: string) => tiers.data?.tiers.find((t) => t.code === code)?.name ?? code;
  const filtered = Boolean(filters.q || filters.status || filters.validity || filters.scope);
  const clear = () => setFilters({ q: '', status: '', validity: '', scope: '' });

  const columns: Column<CouponRow>[] = [
    {
      key: 'code',
      header: '優惠碼',
      className: 'min-w-44',
      cell: (r) => (
        <>
          <Link
            to={adminPath.couponEdit(r.id)}
            state={{ listSearch: location.search }}
            className="font-mono font-medium break-all text-tea underline-offset-4 hover:underline"
          >
            {r.code}
          </Link>
          <span className="block text-xs text-ink-muted">{r.name}</span>
        </>
      ),
    },
    {
      key: 'value',
      header: '折扣',
      cell: (r) => (
        <span className="whitespace-nowrap">
          {couponValueText(r)}
          <span className="block text-xs text-ink-muted">
            {r.minSpend > 0 ? `滿 ${formatTwd(r.minSpend)}` : '不限金額'}
          </span>
        </span>
      ),
    },
    {
      key: 'period',
      header: '期間',
      cell: (r) => (
        <span className="tabular whitespace-nowrap">
          {formatTaipeiDate(r.startsAt)}
          <span className="block text-xs text-ink-muted">
            至 {formatTaipeiDate(new Date(Date.parse(r.endsAt) - 1).toISOString())}
          </span>
        </span>
      ),
    },
    {
      key: 'who',
      header: '適用對象',
      className: 'min-w-40',
      cell: (r) =>
        r.ownerEmail ? (
          <span className="flex flex-col items-start gap-1">
            <Badge tone="amber" className="whitespace-nowrap">
              專屬
            </Badge>
            <span className="text-xs break-all text-ink-muted">{r.ownerEmail}</span>
          </span>
        ) : (
          <span className="flex flex-col items-start gap-1">
            <span className="whitespace-nowrap">
              {r.tierCodes.length ? r.tierCodes.map(tierName).join('、') : '所有會員'}
            </span>
            {r.listed && <span className="text-xs text-ink-muted">顯示在會員優惠券</span>}
          </span>
        ),
    },
    {
      key: 'usage',
      header: '已使用 / 上限',
      align: 'right',
      cell: (r) => <CouponUsage used={r.usedCount} limit={r.totalLimit} />,
    },
    {
      key: 'state',
      header: '狀態',
      className: 'whitespace-nowrap',
      cell: (r) => <CouponStateBadge state={r.state} />,
    },
  ];

  return (
    <AdminPage
      title="優惠券"
      description="結束日期最晚的在最上面。暫停的優惠碼會立刻無法在結帳時使用。"
      actions={
        canWrite ? (
          <ButtonLink to={adminPath.couponNew()} state={{ listSearch: location.search }}>
            新增優惠券
          </ButtonLink>
        ) : undefined
      }
    >
      <FilterBar label="篩選優惠券">
        <SearchBox value={filters.q} onSearch={(q) => setFilters({ q })} placeholder="優惠碼或名稱" />
        <div className="w-[calc(50%-0.375rem)] sm:w-36">
          <SelectField
            label="啟用狀態"
            value={filters.status}
            onChange={(e) => setFilters({ status: e.target.value })}
          >
            <option value="">全部</option>
            <option value="active">啟用中</option>
            <option value="paused">已暫停</option>
          </SelectField>
        </div>
        <div className="w-[calc(50%-0.375rem)] sm:w-36">
          <SelectField
            label="期間"
            value={filters.validity}
            onChange={(e) => setFilters({ validity: e.target.value })}
          >
            <option value="">全部</option>
            {COUPON_VALIDITY.map((v) => (
              <option key={v} value={v}>
                {COUPON_VALIDITY_LABELS[v]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-[calc(50%-0.375rem)] sm:w-36">
          <SelectField
            label="類型"
            value={filters.scope}
            onChange={(e) => setFilters({ scope: e.target.value })}
          >
            <option value="">全部</option>
            <option value="shared">公開優惠碼</option>
            <option value="personal">會員專屬</option>
          </SelectField>
        </div>
        {filtered && (
          <Button variant="ghost" onClick={clear}>
            清除條件
          </Button>
        )}
      </FilterBar>
      <DataTable
        caption="優惠券列表"
        columns={columns}
        query={query}
        rowKey={(r) => r.id}
        onPage={setPage}
        empty={
          filtered ? (
            <span className="flex flex-col items-center gap-3">
              沒有符合條件的優惠券。
              <Button size="sm" variant="secondary" onClick={clear}>
                清除篩選條件
              </Button>
            </span>
          ) : (
            '還沒有任何優惠券。'
          )
        }
      />
    </AdminPage>
  );
}
