import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTwd } from '@shop/shared/money';
import { RETURN_STATUS_LABELS, type ReturnStatus } from '@shop/shared/returns';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import type { ReturnRow as Row, ReturnsFilter } from '../api.ts';
import { TransferTasks } from '../components/transfer-tasks.tsx';
import { returnsQuery } from '../queries.ts';

const DEFAULTS = { status: 'open' };
const FILTERS: ReadonlyArray<readonly [ReturnsFilter, string]> = [
  ['open', '處理中（等待審核與待收貨）'],
  ['requested', '等待審核'],
  ['approved', '待收貨'],
  ['received', '已收貨'],
  ['refused', '未核准'],
  ['all', '全部'],
];
const EMPTY: Record<ReturnsFilter, string> = {
  open: '沒有待處理的退貨申請。',
  requested: '沒有等待審核的退貨申請。',
  approved: '沒有等待寄回的退貨。',
  received: '還沒有已收貨的退貨。',
  refused: '沒有未核准的退貨申請。',
  all: '還沒有任何退貨申請。',
};
const TONES: Record<ReturnStatus, BadgeTone> = {
  requested: 'amber',
  approved: 'tea',
  refused: 'neutral',
  received: 'success',
};
const REFUND: Record<NonNullable<Row['refund']>, { text: string; className: string }> = {
  pending: { text: '退款處理中', className: 'text-ink-muted' },
  done: { text: '已退款', className: 'text-success' },
  failed: { text: '退款未完成', className: 'text-danger' },
};

const filterOf = (value: string): ReturnsFilter => FILTERS.find(([v]) => v === value)?.[0] ?? 'open';

const columns: Column<Row>[] = [
  {
    key: 'returnNo',
    header: '退貨編號',
    cell: (r) => (
      <>
        <Link
          to={`${adminPath.orderDetail(r.orderNo)}#returns`}
          className="tabular font-medium whitespace-nowrap text-tea underline-offset-4 hover:underline"
        >
          {r.returnNo}
        </Link>
        <span className="tabular block text-xs whitespace-nowrap text-ink-muted">
          申請於 {formatTaipeiDateTime(r.requestedAt)}
        </span>
      </>
    ),
  },
  {
    key: 'status',
    header: '狀態',
    cell: (r) => (
      <>
        <Badge tone={TONES[r.status]} className="whitespace-nowrap">
          {RETURN_STATUS_LABELS[r.status]}
        </Badge>
        {r.refund && (
          <span className={`block pt-1 text-xs whitespace-nowrap ${REFUND[r.refund].className}`}>
            {REFUND[r.refund].text}
          </span>
        )}
      </>
    ),
  },
  {
    key: 'amount',
    header: '退款金額',
    align: 'right',
    cell: (r) => <span className="tabular whitespace-nowrap">{formatTwd(r.amount)}</span>,
  },
  {
    key: 'member',
    header: '會員',
    className: 'min-w-40',
    cell: (r) => (
      <>
        <span className="block">{r.memberName || '（未填姓名）'}</span>
        <span className="block text-xs break-all text-ink-muted">{r.memberEmail}</span>
      </>
    ),
  },
  { key: 'reason', header: '原因', className: 'min-w-40', cell: (r) => r.reason },
  {
    key: 'items',
    header: '件數',
    align: 'right',
    cell: (r) => <span className="tabular whitespace-nowrap">{r.itemCount} 件</span>,
  },
];

/** /admin/returns: the transfers waiting for staff, then the members' returns by status, each opening its order. */
export default function ReturnsPage() {
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const status = filterOf(filters.status);
  const query = useQuery(returnsQuery({ status, page }));
  return (
    <AdminPage
      title="退貨與退款"
      description="會員在鑑賞期內提出的退貨申請，以及要由店家轉帳的退款。審核與收貨請到各訂單的「退貨申請」處理。"
    >
      <TransferTasks />
      <section aria-labelledby="returns-title" className="flex flex-col gap-3">
        <h2 id="returns-title" className="text-lg font-semibold">
          退貨申請
        </h2>
        <FilterBar>
          <SelectField
            label="狀態"
            value={status}
            onChange={(e) => setFilters({ status: e.target.value })}
            containerClassName="w-full sm:w-72"
          >
            {FILTERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
        </FilterBar>
        <DataTable
          caption="退貨申請列表"
          columns={columns}
          query={query}
          rowKey={(r) => r.returnNo}
          empty={EMPTY[status]}
          onPage={setPage}
        />
      </section>
    </AdminPage>
  );
}
