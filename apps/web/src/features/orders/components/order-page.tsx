import { useQuery } from '@tanstack/react-query';
import { OPEN_UNPAID } from '@shop/shared/order-status';
import type { OrderDetail } from '@shop/shared/orders';
import { NOT_FOUND_TITLE } from '@shop/shared/routes';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { orderQueryOptions } from '../api/orders-api.ts';
import {
  AtmDetails,
  OrderActions,
  OrderAmounts,
  OrderItems,
  OrderStatusBadge,
  OrderTimeline,
  TrackingLink,
  formatDateTime,
} from './order-parts.tsx';
import { StoreCodeDetails } from './store-code-details.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { IssuedInvoice } from '../../../components/issued-invoice.tsx';
import { NewStoreNotice } from './new-store.tsx';
import { ReturnsPanel } from './returns-panel.tsx';

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-line bg-surface p-5" aria-label={title}>
      <h2 className="mb-3 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * The header's lead: number, status, and when the order was placed. Each piece wraps whole and
 * none starts with a separator, so a narrow screen never begins a line with 「・2026/11/23 23:13」.
 */
export function OrderLead({ order }: { order: Pick<OrderDetail, 'orderNo' | 'status' | 'createdAt'> }) {
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <span className="tabular">{order.orderNo}</span>
      <OrderStatusBadge status={order.status} />
      <time dateTime={order.createdAt} className="tabular whitespace-nowrap">
        下單時間 {formatDateTime(order.createdAt)}
      </time>
    </span>
  );
}

/** Shared by the order detail and the tracking detail (which leads with the timeline). */
export function OrderPage({ tracking = false }: { tracking?: boolean }) {
  const { orderId = '' } = useParams();
  const order = useQuery(orderQueryOptions(orderId));
  const missing =
    order.error instanceof ApiError && (order.error.status === 404 || order.error.status === 400);
  usePageTitle(
    order.data
      ? `${tracking ? '配送進度' : '訂單'} ${order.data.orderNo}`
      : missing
        ? NOT_FOUND_TITLE
        : undefined,
  );
  const back = (
    <Link to={tracking ? paths.orderTracking() : paths.orderList()} className={textLinkClass}>
      ← {tracking ? '回配送追蹤' : '回訂單列表'}
    </Link>
  );
  if (order.isPending) {
    return (
      <div role="status" aria-label="載入訂單">
        <SkeletonText lines={6} />
      </div>
    );
  }
  if (order.isError) {
    return missing ? (
      <EmptyState
        title="找不到這筆訂單"
        description="訂單編號可能有誤，或不屬於這個帳號。"
        action={<ButtonLink to={paths.orderList()}>回訂單列表</ButtonLink>}
      />
    ) : (
      <LoadError query={order} />
    );
  }
  const o = order.data;
  const s = o.shipping;
  const shipment = [...o.events].reverse().find((e) => e.kind === 'shipment' && (e.carrier || e.trackingNo));
  const timeline = (
    <Panel title="配送進度">
      {shipment && (
        <div className="mb-3 flex flex-col gap-1 rounded-md bg-paper px-3 py-2 text-sm">
          {shipment.carrier && <p className="font-medium">{shipment.carrier}</p>}
          {shipment.trackingNo && (
            <TrackingLink
              carrier={shipment.carrier ?? ''}
              trackingNo={shipment.trackingNo}
              tracking={shipment.tracking}
            />
          )}
        </div>
      )}
      <OrderTimeline order={o} />
    </Panel>
  );
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={tracking ? '配送進度' : '訂單明細'} lead={<OrderLead order={o} />} actions={back} />
      <NewStoreNotice order={o} />
      {tracking && timeline}
      {o.payment?.atm && o.payment.status === 'waiting_transfer' && (
        <WaitingForMoney id="atm-title" title="請完成 ATM 轉帳">
          <AtmDetails atm={o.payment.atm} total={o.total} />
        </WaitingForMoney>
      )}
      {o.payment?.store && o.payment.status === 'waiting_transfer' && OPEN_UNPAID.includes(o.status) && (
        <WaitingForMoney id="store-code-title" title="請到超商繳費">
          <StoreCodeDetails store={o.payment.store} total={o.total} />
        </WaitingForMoney>
      )}
      {o.payment?.status === 'failed' && o.status === 'payment_failed' && (
        <Alert tone="error">{o.payment.message}</Alert>
      )}
      <OrderActions order={o} />
      <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
        <Panel title="購買商品">
          <OrderItems order={o} />
        </Panel>
        <Panel title="金額">
          <OrderAmounts order={o} />
        </Panel>
      </div>
      <div className="grid gap-6 sm:grid-cols-2">
        <Panel title="配送資訊">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-muted">方式</dt>
            <dd>{s.methodLabel}</dd>
            <dt className="text-ink-muted">{s.method === 'home' ? '收件人' : '取件人'}</dt>
            <dd>
              {s.recipientName}（{s.phone}）
            </dd>
            {s.method === 'home' ? (
              <>
                <dt className="text-ink-muted">地址</dt>
                <dd>
                  {s.postalCode} {s.address}
                </dd>
              </>
            ) : (
              <>
                <dt className="text-ink-muted">門市</dt>
                <dd>
                  {s.store}（{s.storeId}）
                  <br />
                  <span className="text-ink-muted">{s.storeAddress}</span>
                </dd>
              </>
            )}
            {o.note && (
              <>
                <dt className="text-ink-muted">備註</dt>
                <dd className="break-words">{o.note}</dd>
              </>
            )}
          </dl>
        </Panel>
        <Panel title="電子發票">
          <p className="text-sm">{o.invoice.label}</p>
          {o.invoice.carrier && (
            <p className="text-sm text-ink-muted">
              {o.invoice.type === 'certificate' ? '自然人憑證條碼' : '手機條碼'} {o.invoice.carrier}
            </p>
          )}
          {o.invoice.donationCode && (
            <p className="text-sm text-ink-muted">愛心碼 {o.invoice.donationCode}</p>
          )}
          {o.invoice.taxId && (
            <p className="text-sm text-ink-muted">
              {o.invoice.companyTitle}・統編 {o.invoice.taxId}
            </p>
          )}
          {o.issuedInvoice && (
            <div className="mt-3 border-t border-line pt-3">
              <IssuedInvoice invoice={o.issuedInvoice} />
            </div>
          )}
        </Panel>
      </div>
      <ReturnsPanel order={o} />
      {!tracking && timeline}
    </div>
  );
}

/** An ATM account or a store code the order waits to be paid with, above the order's details. */
function WaitingForMoney({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-amber/40 bg-amber-soft/50 p-4 sm:p-5">
      <h2 id={id} className="mb-3 font-semibold text-[#7a4f22]">
        {title}
      </h2>
      {children}
    </section>
  );
}
