import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import {
  MEMBER_STATUSES,
  MEMBER_STATUS_LABELS,
  USER_ROLE_NAMES,
  type MemberListQuery,
  type MemberRow,
  type MemberStatus,
} from '@shop/shared/admin-members';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTwd } from '@shop/shared/money';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { membersQuery, tiersQuery } from '../queries.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { SearchBox } from '../../shared/search-box.tsx';
import { MemberStatusBadge } from '../components/member-status-badge.tsx';
import { formatTaipeiDate } from '@shop/shared/taipei-time';

const DEFAULTS = { q: '', tier: '', status: '' };

/** The URL's filter strings as the API's query (unknown values are dropped; the server checks again). */
function toApiQuery(f: typeof DEFAULTS, page: number): Partial<MemberListQuery> {
  return {
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
    ...(/^[a-z0-9-]{1,30}$/.test(f.tier) ? { tier: f.tier } : {}),
    ...(MEMBER_STATUSES.includes(f.status as MemberStatus) ? { status: f.status as MemberStatus } : {}),
    page,
  };
}

const columns = (listSearch: string): Column<MemberRow>[] => [
  {
    key: 'name',
    header: '會員',
    className: 'min-w-56',
    cell: (r) => (
      <>
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Link
            to={adminPath.memberDetail(r.id)}
            state={{ listSearch }}
            className="font-medium text-tea underline-offset-4 hover:underline"
          >
            {r.name}
          </Link>
          {r.role !== 'customer' && (
            <Badge tone="tea" className="whitespace-nowrap">
              {USER_ROLE_NAMES[r.role]}
            </Badge>
          )}
        </span>
        <span className="block text-xs break-all text-ink-muted">{r.email}</span>
      </>
    ),
  },
  {
    key: 'phone',
    header: '手機',
    cell: (r) => (
      <span className="tabular whitespace-nowrap">
        {r.phone ?? <span className="text-ink-muted">—</span>}
      </span>
    ),
  },
  // A console account (owner, staff, viewer) is not a shopper: no tier, and no spending unless it
  // has bought something.
  {
    key: 'tier',
    header: '等級',
    cell: (r) =>
      r.role === 'customer' ? (
        <span className="whitespace-nowrap">{r.tierName}</span>
      ) : (
        <span className="whitespace-nowrap text-ink-muted">管理員帳號</span>
      ),
  },
  {
    key: 'spend',
    header: '近 12 個月消費',
    align: 'right',
    cell: (r) =>
      r.role !== 'customer' && r.orderCount === 0 ? (
        <span className="text-ink-muted">—</span>
      ) : (
        <span className="tabular whitespace-nowrap">{formatTwd(r.spend)}</span>
      ),
  },
  {
    key: 'orders',
    header: '訂單數',
    align: 'right',
    cell: (r) =>
      r.role !== 'customer' && r.orderCount === 0 ? (
        <span className="text-ink-muted">—</span>
      ) : (
        <span className="tabular">{r.orderCount}</span>
      ),
  },
  {
    key: 'joined',
    header: '加入日期',
    cell: (r) => <span className="tabular whitespace-nowrap">{formatTaipeiDate(r.joinedAt)}</span>,
  },
  {
    key: 'status',
    header: '狀態',
    className: 'whitespace-nowrap',
    cell: (r) => <MemberStatusBadge disabledAt={r.disabledAt} />,
  },
];

/** /admin/members: every account, newest first; search and filters kept in the URL. */
export default function MembersPage() {
  const location = useLocation();
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const query = useQuery(membersQuery(toApiQuery(filters, page)));
  const tiers = useQuery(tiersQuery());
  const filtered = Boolean(filters.q || filters.tier || filters.status);
  const clear = () => setFilters({ q: '', tier: '', status: '' });

  return (
    <AdminPage
      title="會員"
      description="新加入的會員在最上面。消費金額依會員等級的規則計算：近 12 個月內已付款的訂單。"
    >
      <FilterBar label="篩選會員">
        <SearchBox value={filters.q} onSearch={(q) => setFilters({ q })} placeholder="姓名、電子郵件或手機" />
        <div className="w-[calc(50%-0.375rem)] sm:w-40">
          <SelectField
            label="會員等級"
            value={filters.tier}
            onChange={(e) => setFilters({ tier: e.target.value })}
          >
            <option value="">全部等級</option>
            {tiers.data?.tiers.map((t) => (
              <option key={t.code} value={t.code}>
                {t.name}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-[calc(50%-0.375rem)] sm:w-36">
          <SelectField
            label="帳號狀態"
            value={filters.status}
            onChange={(e) => setFilters({ status: e.target.value })}
          >
            <option value="">全部</option>
            {MEMBER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {MEMBER_STATUS_LABELS[s]}
              </option>
            ))}
          </SelectField>
        </div>
        {filtered && (
          <Button variant="ghost" onClick={clear}>
            清除條件
          </Button>
        )}
      </FilterBar>
      <DataTable
        caption="會員列表"
        columns={columns(location.search)}
        query={query}
        rowKey={(r) => r.id}
        onPage={setPage}
        empty={
          filtered ? (
            <span className="flex flex-col items-center gap-3">
              沒有符合條件的會員。
              <Button size="sm" variant="secondary" onClick={clear}>
                清除篩選條件
              </Button>
            </span>
          ) : (
            '還沒有任何會員。'
          )
        }
      />
    </AdminPage>
  );
}
