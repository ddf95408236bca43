import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { adminPath } from '@shop/shared/admin-routes';
import {
  PAYMENT_METHOD_SHORT,
  PAYMENT_METHODS,
  SHIPPING_METHOD_LABELS,
  SHIPPING_METHODS,
  type AdminOrderFilters,
  type AdminOrderRow,
} from '@shop/shared/admin-orders';
import { formatTwd } from '@shop/shared/money';
import { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from '@shop/shared/order-status';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { adminOrdersQuery } from '../queries.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { SearchBox } from '../../shared/search-box.tsx';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { PaymentStateBadge } from '../components/payment-state-badge.tsx';
import { OrderStatusBadge } from '../../../features/orders/components/order-parts.tsx';
import { ordersApi } from '../api.ts';
import { isPaymentMethod } from '@shop/shared/payment-methods';
import { Alert } from '../../../components/ui/alert.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { DialogButtons } from '../components/order-actions.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { adminOrderKeys } from '../queries.ts';

const DEFAULTS = { status: '', payment: '', shipping: '', from: '', to: '', q: '' };

/** The URL's filter strings as the API's query (unknown values are dropped; the server checks again). */
function toApiFilters(f: typeof DEFAULTS): AdminOrderFilters {
  return {
    ...(ORDER_STATUSES.includes(f.status as OrderStatus) ? { status: f.status as OrderStatus } : {}),
    ...(isPaymentMethod(f.payment) ? { payment: f.payment } : {}),
    ...(SHIPPING_METHODS.includes(f.shipping as never)
      ? { shipping: f.shipping as AdminOrderFilters['shipping'] }
      : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(f.from) ? { from: f.from } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(f.to) ? { to: f.to } : {}),
    ...(f.q.trim() ? { q: f.q.trim() } : {}),
  };
}

type Selection = { readonly has: (orderNo: string) => boolean; readonly toggle: (orderNo: string) => void };

const columns = (listSearch: string, selection: Selection | null): Column<AdminOrderRow>[] => [
  ...(selection
    ? [
        {
          key: 'select',
          header: <span className="sr-only">選取</span>,
          cell: (r: AdminOrderRow) => (
            <input
              type="checkbox"
              className="size-5 accent-tea"
              aria-label={`選取 ${r.orderNo}`}
              checked={selection.has(r.orderNo)}
              onChange={() => selection.toggle(r.orderNo)}
            />
          ),
        },
      ]
    : []),
  {
    key: 'orderNo',
    header: '訂單編號／成立時間',
    cell: (r) => (
      <>
        <Link
          to={adminPath.orderDetail(r.orderNo)}
          state={{ listSearch }}
          className="tabular block font-medium whitespace-nowrap text-tea underline-offset-4 hover:underline"
        >
          {r.orderNo}
        </Link>
        <time dateTime={r.placedAt} className="tabular block text-xs whitespace-nowrap text-ink-muted">
          {formatTaipeiDateTime(r.placedAt)}
        </time>
      </>
    ),
  },
  {
    key: 'status',
    header: '狀態',
    cell: (r) => (
      <span className="whitespace-nowrap">
        <OrderStatusBadge status={r.status} />
      </span>
    ),
  },
  {
    key: 'customer',
    header: '顧客',
    cell: (r) => (
      <>
        <span className="block whitespace-nowrap">{r.customerName}</span>
        <span className="block text-xs whitespace-nowrap text-ink-muted">{r.customerEmail}</span>
      </>
    ),
  },
  {
    key: 'recipient',
    header: '收件人',
    cell: (r) => (
      <>
        <span className="block whitespace-nowrap">{r.recipientName}</span>
        <span className="tabular block text-xs text-ink-muted">{r.recipientPhone}</span>
      </>
    ),
  },
  {
    key: 'total',
    header: '金額',
    align: 'right',
    cell: (r) => (
      <>
        <span className="tabular block whitespace-nowrap">{formatTwd(r.total)}</span>
        <span className="tabular block text-xs whitespace-nowrap text-ink-muted">共 {r.itemCount} 件</span>
      </>
    ),
  },
  {
    key: 'payment',
    header: '付款',
    cell: (r) => (
      <span className="flex flex-col items-start gap-1 whitespace-nowrap">
        <span>{PAYMENT_METHOD_SHORT[r.paymentMethod]}</span>
        <PaymentStateBadge state={r.paymentState} order={r} />
      </span>
    ),
  },
  {
    key: 'shipping',
    header: '配送',
    cell: (r) => <span className="whitespace-nowrap">{SHIPPING_METHOD_LABELS[r.shippingMethod]}</span>,
  },
];

/** /admin/orders: every order, newest first, with filters kept in the URL and a CSV of the same rows. */
export default function OrdersPage() {
  const location = useLocation();
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const apiFilters = toApiFilters(filters);
  const dateError =
    apiFilters.from && apiFilters.to && apiFilters.from > apiFilters.to
      ? '結束日期不能早於開始日期'
      : undefined;
  const query = useQuery({ ...adminOrdersQuery({ ...apiFilters, page }), enabled: !dateError });
  const filtered = Object.keys(apiFilters).length > 0;
  const canWrite = useCan('orders.write');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const selection: Selection = {
    has: (n) => selected.has(n),
    toggle: (n) =>
      setSelected((s) => (s.has(n) ? new Set([...s].filter((x) => x !== n)) : new Set([...s, n]))),
  };
  const rows = query.data?.items ?? [];

  return (
    <AdminPage
      title="訂單"
      description="新訂單在最上面。點訂單編號可查看明細、出貨與列印出貨單。"
      actions={
        dateError ? (
          <Button variant="secondary" disabled>
            匯出 CSV
          </Button>
        ) : (
          <a href={ordersApi.csvUrl(apiFilters)} download className={buttonClass('secondary')}>
            匯出 CSV
          </a>
        )
      }
    >
      <FilterBar label="篩選訂單">
        {/* Top-aligned, so an error under a date field does not push its neighbours around. */}
        <div className="flex w-full flex-wrap items-start gap-3">
          <div className="w-full sm:w-40">
            <SelectField
              label="訂單狀態"
              value={filters.status}
              onChange={(e) => setFilters({ status: e.target.value })}
            >
              <option value="">全部狀態</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {ORDER_STATUS_LABELS[s]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="w-[calc(50%-0.375rem)] sm:w-36">
            <SelectField
              label="付款方式"
              value={filters.payment}
              onChange={(e) => setFilters({ payment: e.target.value })}
            >
              <option value="">全部</option>
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_SHORT[m]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="w-[calc(50%-0.375rem)] sm:w-36">
            <SelectField
              label="配送方式"
              value={filters.shipping}
              onChange={(e) => setFilters({ shipping: e.target.value })}
            >
              <option value="">全部</option>
              {SHIPPING_METHODS.map((m) => (
                <option key={m} value={m}>
                  {SHIPPING_METHOD_LABELS[m]}
                </option>
              ))}
            </SelectField>
          </div>
          <fieldset className="flex w-full min-w-0 items-start gap-3 sm:w-auto">
            <legend className="sr-only">成立日期區間</legend>
            <TextField
              label="成立日期（起）"
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => setFilters({ from: e.target.value })}
              className="min-w-0"
              containerClassName="min-w-0 flex-1 sm:w-44"
            />
            <TextField
              label="成立日期（迄）"
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              error={dateError}
              onChange={(e) => setFilters({ to: e.target.value })}
              className="min-w-0"
              containerClassName="min-w-0 flex-1 sm:w-44"
            />
          </fieldset>
          <SearchBox
            value={filters.q}
            onSearch={(q) => setFilters({ q })}
            placeholder="訂單編號、電子郵件或電話"
          />
          {filtered && (
            <Button
              variant="ghost"
              className="self-end"
              onClick={() => setFilters({ status: '', payment: '', shipping: '', from: '', to: '', q: '' })}
            >
              清除條件
            </Button>
          )}
        </div>
      </FilterBar>

      {canWrite && selected.size > 0 && (
        <BatchBar rows={rows} selected={selected} onDone={() => setSelected(new Set())} />
      )}
      {dateError ? (
        <EmptyState title="日期區間有誤" description="結束日期不能早於開始日期，請調整日期後再查詢。" />
      ) : (
        <DataTable
          caption="訂單列表"
          columns={columns(location.search, canWrite ? selection : null)}
          query={query}
          rowKey={(r) => r.orderNo}
          onPage={setPage}
          empty={
            filtered ? (
              <span className="flex flex-col items-center gap-3">
                沒有符合條件的訂單。
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() =>
                    setFilters({ status: '', payment: '', shipping: '', from: '', to: '', q: '' })
                  }
                >
                  清除篩選條件
                </Button>
              </span>
            ) : (
              '還沒有任何訂單。'
            )
          }
        />
      )}
    </AdminPage>
  );
}

type BatchAction = 'process' | 'ship-ecpay';

/** What each batch move says before it runs and once it has. */
const BATCH: Record<BatchAction, { label: string; confirm: string; done: (n: number) => string }> = {
  process: {
    label: '開始備貨',
    confirm: '開始備貨後，會員會在訂單進度看到「備貨中」。',
    done: (n) => `已將 ${n} 筆訂單改為備貨中。`,
  },
  'ship-ecpay': {
    label: '以綠界物流出貨',
    confirm: '會逐筆在綠界建立物流單並出貨，追蹤編號自動帶入，會員會收到出貨通知信。',
    done: (n) => `已建立 ${n} 張綠界物流單並出貨。`,
  },
};

/** ECPay's home delivery collects no cash: such an order goes with a carrier that does (the order page). */
const viaEcpay = (r: AdminOrderRow) => !(r.shippingMethod === 'home' && r.paymentMethod === 'cod');

/**
 * What staff do with several orders at once: start preparing the paid ones, ship the ones being
 * prepared through ECPay (each its own logistics order), one after another so one refusal does not
 * stop the rest, each after a confirmation that names the orders; and print the labels of those
 * that have a parcel.
 */
function BatchBar({
  rows,
  selected,
  onDone,
}: {
  rows: readonly AdminOrderRow[];
  selected: ReadonlySet<string>;
  onDone(): void;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<BatchAction | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const chosen = rows.filter((r) => selected.has(r.orderNo));
  const targets: Record<BatchAction, AdminOrderRow[]> = {
    process: chosen.filter((r) => r.status === 'paid'),
    'ship-ecpay': chosen.filter((r) => r.status === 'processing' && viaEcpay(r)),
  };
  const codHome = chosen.filter((r) => r.status === 'processing' && !viaEcpay(r));
  const run = async (action: BatchAction) => {
    setBusy(true);
    const failed: string[] = [];
    let done = 0;
    for (const r of targets[action]) {
      try {
        await ordersApi.action(r.orderNo, { action });
        done++;
      } catch (error) {
        failed.push(`${r.orderNo}：${errorMessage(error)}`);
      }
    }
    await client.invalidateQueries({ queryKey: adminOrderKeys.all });
    setBusy(false);
    setAsking(null);
    setProblems(failed);
    if (done > 0) toast.success(BATCH[action].done(done));
    if (failed.length === 0) onDone();
  };
  const print = async () => {
    try {
      const { printed, missing } = await ordersApi.printLabels(chosen.map((r) => r.orderNo));
      setProblems(missing.map((n) => `${n}：沒有綠界物流單（尚未出貨或手動出貨），請另行列印。`));
      if (printed > 0) toast.success(`已開啟 ${printed} 張寄件單。`);
    } catch (error) {
      setProblems([errorMessage(error)]);
    }
  };
  const left = chosen.length - targets.process.length - targets['ship-ecpay'].length;
  return (
    <div
      className="mb-3 flex flex-col gap-2 rounded-md border border-tea/40 bg-tea-soft/40 p-3"
      role="region"
      aria-label="批次處理"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm">已選 {chosen.length} 筆</span>
        <Button size="sm" disabled={targets.process.length === 0} onClick={() => setAsking('process')}>
          開始備貨（{targets.process.length}）
        </Button>
        <Button
          size="sm"
          disabled={targets['ship-ecpay'].length === 0}
          onClick={() => setAsking('ship-ecpay')}
        >
          以綠界物流出貨（{targets['ship-ecpay'].length}）
        </Button>
        <Button size="sm" variant="secondary" onClick={() => void print()}>
          列印寄件單
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          取消選取
        </Button>
      </div>
      {left > 0 && (
        <p className="text-xs text-ink-muted">
          「已付款」的訂單可以開始備貨，「備貨中」的訂單可以出貨；其他已選的訂單不會變動。
          {codHome.length > 0 &&
            `宅配貨到付款的訂單（${codHome.length} 筆）綠界不代收貨款，請到訂單頁以其他物流出貨。`}
        </p>
      )}
      {problems.length > 0 && (
        <Alert tone="error">
          <ul className="list-disc pl-5">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Alert>
      )}
      <Dialog
        open={asking !== null}
        onClose={() => !busy && setAsking(null)}
        title={asking ? `${BATCH[asking].label}：${targets[asking].length} 筆訂單` : ''}
      >
        {asking && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void run(asking);
            }}
            className="flex flex-col gap-4"
          >
            <p className="text-sm">{BATCH[asking].confirm}</p>
            <ul
              className="flex max-h-64 flex-col gap-1 overflow-y-auto rounded-md bg-paper px-3 py-2 text-sm"
              aria-label={`要${BATCH[asking].label}的訂單`}
            >
              {targets[asking].map((r) => (
                <li key={r.orderNo} className="flex flex-wrap justify-between gap-x-3">
                  <span className="tabular">{r.orderNo}</span>
                  <span className="text-ink-muted">
                    {r.recipientName}・{SHIPPING_METHOD_LABELS[r.shippingMethod]}
                  </span>
                </li>
              ))}
            </ul>
            <DialogButtons
              onCancel={() => setAsking(null)}
              submitLabel={`${BATCH[asking].label}（${targets[asking].length} 筆）`}
              loading={busy}
            />
          </form>
        )}
      </Dialog>
    </div>
  );
}
