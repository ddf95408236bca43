import { LINE_PAY_CANCELLED } from '@shop/shared/line-pay';
import { installmentWords } from '@shop/shared/store-payments';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { adminPath } from '@shop/shared/admin-routes';
import {
  PAYMENT_METHOD_SHORT,
  SHIPPING_METHOD_LABELS,
  type AdminOrderDetail,
  type AdminPaymentView,
} from '@shop/shared/admin-orders';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { ordersApi } from '../api.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { mailtoHref } from '../../../lib/links.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { OrderActions } from '../components/order-actions.tsx';
import { OrderHistory, OrderOperations } from '../components/order-history.tsx';
import { OrderReturns } from '../components/order-returns.tsx';
import { adminOrderQuery } from '../queries.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { PaymentStateBadge } from '../components/payment-state-badge.tsx';
import { DiscountLine, OrderStatusBadge } from '../../../features/orders/components/order-parts.tsx';
import { Facts, Panel } from '../../shared/panel.tsx';
import { RecipientCorrection } from '../components/recipient-correction.tsx';
import { IssuedInvoice } from '../../../components/issued-invoice.tsx';
import { RefundList } from '../../../components/refund-list.tsx';
import { PAYMENT_ATTEMPT_LABELS } from '@shop/shared/payment-methods';

function Items({ order }: { order: AdminOrderDetail }) {
  const a = order.amounts;
  return (
    <>
      <div className="-mx-5 overflow-x-auto px-5">
        <table className="w-full text-sm">
          <caption className="sr-only">購買商品</caption>
          <thead className="text-ink-muted">
            <tr className="border-b border-line">
              <th scope="col" className="py-2 pr-3 text-left font-medium">
                商品
              </th>
              <th scope="col" className="hidden py-2 pr-3 text-left font-medium sm:table-cell">
                SKU
              </th>
              <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">
                單價
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium whitespace-nowrap">
                數量
              </th>
              <th scope="col" className="py-2 text-right font-medium whitespace-nowrap">
                小計
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((i) => (
              <tr key={i.sku} className="border-b border-line last:border-b-0">
                <td className="py-3 pr-3">
                  <span className="flex items-center gap-3">
                    {i.imageSrc ? (
                      <img
                        src={i.imageSrc}
                        alt=""
                        width={40}
                        height={50}
                        loading="lazy"
                        className="aspect-[4/5] w-10 shrink-0 rounded border border-line object-cover"
                      />
                    ) : (
                      <span
                        className="aspect-[4/5] w-10 shrink-0 rounded border border-line bg-paper"
                        aria-hidden="true"
                      />
                    )}
                    <span>
                      <span className="block font-medium">{i.productName}</span>
                      <span className="block text-ink-muted">{i.variantLabel}</span>
                      {/* Narrow screens: SKU and unit price under the name instead of in their own columns. */}
                      <span className="tabular block text-xs text-ink-muted sm:hidden">
                        <span className="font-mono">{i.sku}</span>・{formatTwd(i.unitPrice)}
                      </span>
                    </span>
                  </span>
                </td>
                <td className="hidden py-3 pr-3 font-mono text-xs whitespace-nowrap sm:table-cell">
                  {i.sku}
                </td>
                <td className="tabular hidden py-3 pr-3 text-right whitespace-nowrap sm:table-cell">
                  {formatTwd(i.unitPrice)}
                </td>
                <td className="tabular py-3 pr-3 text-right">{i.quantity}</td>
                <td className="tabular py-3 text-right whitespace-nowrap">{formatTwd(i.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="mt-4 ml-auto flex max-w-xs flex-col gap-1.5 border-t border-line pt-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-ink-muted">商品小計</dt>
          <dd className="tabular">{formatTwd(a.subtotal)}</dd>
        </div>
        {a.discounts.map((d) => (
          <DiscountLine
            key={`${d.kind}-${d.label}`}
            label={`${d.label}${d.code && !d.label.includes(d.code) ? `（${d.code}）` : ''}`}
            amount={d.amount}
          />
        ))}
        <div className="flex justify-between gap-4">
          <dt className="text-ink-muted">{a.codFee === null ? '運費與貨到付款手續費' : '運費'}</dt>
          <dd className="tabular">{formatTwd(a.shipping)}</dd>
        </div>
        {order.paymentMethod === 'cod' && a.codFee !== null && (
          <div className="flex justify-between gap-4">
            <dt className="text-ink-muted">貨到付款手續費</dt>
            <dd className="tabular">{formatTwd(a.codFee)}</dd>
          </div>
        )}
        <div className="flex justify-between gap-4 border-t border-line pt-2 text-base font-semibold">
          <dt>總計</dt>
          <dd className="tabular">{formatTwd(a.total)}</dd>
        </div>
      </dl>
    </>
  );
}

function PaymentAttempt({ p }: { p: AdminPaymentView }) {
  return (
    <li className="rounded-lg border border-line p-3">
      <p className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <span className="font-mono text-xs">{p.merchantTradeNo}</span>
        <PaymentStateBadge
          state={p.status}
          method={p.method}
          replaced={p.replaced}
          cancelled={p.rtnMsg === LINE_PAY_CANCELLED}
        />
      </p>
      <Facts
        rows={[
          [
            '方式',
            p.provider === 'linepay'
              ? PAYMENT_ATTEMPT_LABELS[p.method]
              : `${PAYMENT_ATTEMPT_LABELS[p.method]}${p.installments ? `（分 ${p.installments} 期）` : ''}・${p.provider === 'ecpay' ? '綠界' : p.provider}`,
          ],
          ['金額', <span className="tabular">{formatTwd(p.amount)}</span>],
          ['建立', <span className="tabular">{formatTaipeiDateTime(p.createdAt)}</span>],
          !!p.paidAt && ['付款', <span className="tabular">{formatTaipeiDateTime(p.paidAt)}</span>],
          !!p.tradeNo && [
            p.provider === 'linepay' ? 'LINE Pay 交易序號' : '交易編號',
            // LINE's 19 digits stay on one line (copied whole to its merchant centre).
            <span className="font-mono text-xs whitespace-nowrap">{p.tradeNo}</span>,
          ],
          !!(p.rtnCode || p.rtnMsg) && ['回應', `${p.rtnCode ?? ''} ${p.rtnMsg ?? ''}`.trim()],
          !!p.atm && ['虛擬帳號', <span className="tabular">{`(${p.atm.bankCode}) ${p.atm.account}`}</span>],
          !!p.atm && ['繳費期限', p.atm.expireDate],
          !!p.store?.paymentNo && ['繳費代碼', <span className="font-mono">{p.store.paymentNo}</span>],
          !!p.store?.barcodes && [
            '繳費條碼',
            <span className="font-mono text-xs" data-testid="admin-barcodes">
              {p.store.barcodes.join(' / ')}
            </span>,
          ],
          !!p.store && ['繳費期限', p.store.deadline],
        ]}
      />
    </li>
  );
}

/** /admin/orders/:orderNo: everything about one order, and the moves staff may make next. */
export default function OrderDetailPage() {
  const { orderNo = '' } = useParams();
  const location = useLocation();
  const canWrite = useCan('orders.write');
  const canSeeMembers = useCan('members.read');
  const order = useQuery(adminOrderQuery(orderNo));
  const listSearch = (location.state as { listSearch?: unknown } | null)?.listSearch;
  const back = {
    to: `${adminPath.orders()}${typeof listSearch === 'string' ? listSearch : ''}`,
    label: '回訂單列表',
  };

  if (order.isPending) {
    return (
      <AdminPage title="訂單明細" back={back}>
        <div role="status" aria-label="載入訂單" className="max-w-3xl">
          <SkeletonText lines={10} />
        </div>
      </AdminPage>
    );
  }
  if (order.isError) {
    const missing =
      order.error instanceof ApiError && (order.error.status === 404 || order.error.status === 400);
    return (
      <AdminPage title="訂單明細" back={back}>
        {missing ? (
          <EmptyState
            title="找不到這筆訂單"
            description={`訂單編號「${orderNo}」不存在，請確認後再試一次。`}
            action={<ButtonLink to={adminPath.orders()}>回訂單列表</ButtonLink>}
          />
        ) : (
          <LoadError title="訂單暫時無法載入" query={order} />
        )}
      </AdminPage>
    );
  }

  const o = order.data;
  const s = o.shipping;
  const i = o.invoice;
  return (
    <AdminPage
      title={o.orderNo}
      back={back}
      description={
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <OrderStatusBadge status={o.status} />
          <span className="tabular">成立於 {formatTaipeiDateTime(o.placedAt)}</span>
          {o.paidAt && <span className="tabular">付款於 {formatTaipeiDateTime(o.paidAt)}</span>}
        </span>
      }
      actions={
        <span className="flex flex-wrap gap-2">
          {o.parcel && <PrintLabelButton orderNo={o.orderNo} />}
          <ButtonLink variant="secondary" to={adminPath.packingSlip(o.orderNo)}>
            列印出貨單
          </ButtonLink>
        </span>
      }
    >
      {o.parcel && (
        <Panel title="綠界物流">
          <p className="text-sm">
            物流編號 <span className="tabular">{o.parcel.logisticsId}</span>・最新貨態{' '}
            <span className="tabular">{o.parcel.statusCode}</span> {o.parcel.statusMessage}
            {o.parcel.collectionAmount > 0 && `・門市代收 ${formatTwd(o.parcel.collectionAmount)}`}
          </p>
        </Panel>
      )}
      <Panel title="處理訂單">
        {canWrite ? (
          <OrderActions order={o} />
        ) : (
          <p className="text-sm text-ink-muted">您的角色只能檢視訂單；出貨、取消或退款請洽店主或店員。</p>
        )}
        {o.status === 'pending_payment' && o.expiresAt && (
          <p className="mt-3 text-sm text-ink-muted">
            會員尚未付款，訂單將於 <span className="tabular">{formatTaipeiDateTime(o.expiresAt)}</span>{' '}
            自動取消並放回庫存。
          </p>
        )}
      </Panel>

      {o.note && (
        <Alert tone="warning" title="顧客備註">
          {o.note}
        </Alert>
      )}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Panel title={`購買商品（共 ${o.itemCount} 件）`}>
            <Items order={o} />
          </Panel>
          <Panel title="訂單歷程">
            <OrderHistory events={o.events} />
          </Panel>
        </div>

        <div className="flex min-w-0 flex-col gap-6">
          <Panel title="顧客">
            <Facts
              rows={[
                [
                  '會員',
                  canSeeMembers ? (
                    <Link
                      to={adminPath.memberDetail(o.customer.id)}
                      className="text-tea underline underline-offset-4"
                    >
                      {o.customer.name || '（未填姓名）'}
                    </Link>
                  ) : (
                    o.customer.name
                  ),
                ],
                [
                  '電子郵件',
                  <a
                    href={mailtoHref(o.customer.email)}
                    className="break-all text-tea underline-offset-4 hover:underline"
                  >
                    {o.customer.email}
                  </a>,
                ],
                !!o.customer.phone && ['電話', <span className="tabular">{o.customer.phone}</span>],
              ]}
            />
          </Panel>

          <Panel title="配送" actions={canWrite ? <RecipientCorrection order={o} /> : undefined}>
            <Facts
              rows={[
                ['方式', SHIPPING_METHOD_LABELS[s.method]],
                [s.method === 'home' ? '收件人' : '取件人', s.recipientName],
                ['電話', <span className="tabular">{s.phone}</span>],
                s.method === 'home' && ['地址', `${s.postalCode ?? ''} ${s.address ?? ''}`.trim()],
                s.method === 'cvs' && [
                  '門市',
                  <>
                    {s.storeName}（店號 <span className="tabular">{s.storeId}</span>）
                    <span className="block text-ink-muted">{s.storeAddress}</span>
                  </>,
                ],
                !!o.shipment?.carrier && ['物流', o.shipment.carrier],
                !!o.shipment?.trackingNo && [
                  '追蹤編號',
                  <span className="font-mono">{o.shipment.trackingNo}</span>,
                ],
              ]}
            />
          </Panel>

          <OrderReturns order={o} />

          <Panel title="發票">
            <Facts
              rows={[
                ['類型', i.label],
                !!i.mobileBarcode && ['手機條碼', <span className="font-mono">{i.mobileBarcode}</span>],
                !!i.certificate && ['自然人憑證條碼', <span className="font-mono">{i.certificate}</span>],
                !!i.donationCode && ['愛心碼', <span className="tabular">{i.donationCode}</span>],
                !!i.companyTitle && ['公司抬頭', i.companyTitle],
                !!i.taxId && ['統一編號', <span className="tabular">{i.taxId}</span>],
              ]}
            />
            {o.issuedInvoice ? (
              <div className="mt-3 border-t border-line pt-3">
                <IssuedInvoice invoice={o.issuedInvoice} />
              </div>
            ) : (
              !['cancelled', 'expired', 'refunded'].includes(o.status) && (
                <p className="mt-3 text-sm text-ink-muted">
                  {o.paymentMethod === 'cod' ? '貨到付款訂單於送達後開立發票。' : '付款完成後開立發票。'}
                </p>
              )
            )}
          </Panel>

          <Panel title="付款">
            <p className="mb-3 text-sm" data-testid="admin-payment-method">
              {PAYMENT_METHOD_SHORT[o.paymentMethod]}
              {o.installments
                ? `・分 ${o.installments} 期（${installmentWords(o.amounts.total, o.installments)}）`
                : ''}
            </p>
            {o.paymentMethod === 'cod' ? (
              <p className="text-sm text-ink-muted">
                由物流於送達或取貨時向顧客收取 {formatTwd(o.amounts.total)}。
              </p>
            ) : o.payments.length === 0 ? (
              <p className="text-sm text-ink-muted">還沒有付款紀錄。</p>
            ) : (
              <ul className="flex flex-col gap-3" aria-label="付款紀錄">
                {[...o.payments].reverse().map((p) => (
                  <PaymentAttempt key={p.merchantTradeNo} p={p} />
                ))}
              </ul>
            )}
            {o.refunds.length > 0 && (
              <div className="mt-3 border-t border-line pt-3">
                <RefundList refunds={o.refunds} />
              </div>
            )}
          </Panel>

          {o.operations && (
            <Panel title="操作紀錄">
              <OrderOperations entries={o.operations} />
            </Panel>
          )}
        </div>
      </div>
    </AdminPage>
  );
}

/** The parcel's label (寄件單) on ECPay's print page, in a new tab. */
function PrintLabelButton({ orderNo }: { orderNo: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      loading={busy}
      onClick={() => {
        setBusy(true);
        ordersApi
          .printLabels([orderNo])
          .catch((error: unknown) => toast.error(errorMessage(error)))
          .finally(() => setBusy(false));
      }}
    >
      列印寄件單
    </Button>
  );
}
