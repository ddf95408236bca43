import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { adminPath } from '@shop/shared/admin-routes';
import { SHIPPING_METHOD_LABELS } from '@shop/shared/admin-orders';
import { BRAND } from '@shop/shared/brand';
import { formatTwd } from '@shop/shared/money';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { adminOrderQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

/**
 * Printing shows the slip alone: the console's frame (side bar, top bar, menu, footer, toasts) and
 * the slip's own buttons are hidden, and the page has A4 margins.
 */
const PRINT_CSS = `
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  html, body { background: #fff !important; }
  div:has(> #admin-main) { display: block !important; min-height: 0 !important; background: #fff !important; }
  div:has(> #admin-main) > :not(#admin-main) { display: none !important; }
  #admin-main { padding: 0 !important; }
  #admin-main > :not(#packing-slip) { display: none !important; }
  #packing-slip { max-width: none !important; }
  #packing-slip .slip-sheet { border: 0 !important; box-shadow: none !important; padding: 0 !important; }
}
`;

/** /admin/orders/:orderNo/packing-slip: what goes in the box with the parcel, ready to print. */
export default function PackingSlipPage() {
  const { orderNo = '' } = useParams();
  const order = useQuery(adminOrderQuery(orderNo));
  const detailPath = adminPath.orderDetail(orderNo);

  const toolbar = (
    <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
      <Link to={detailPath} className="text-sm text-tea underline-offset-4 hover:underline">
        ← 回訂單明細
      </Link>
      <Button onClick={() => window.print()} disabled={!order.data}>
        列印
      </Button>
    </div>
  );

  if (order.isPending || order.isError) {
    const missing =
      order.isError &&
      order.error instanceof ApiError &&
      (order.error.status === 404 || order.error.status === 400);
    return (
      <div id="packing-slip" className="mx-auto flex max-w-3xl flex-col gap-6">
        {toolbar}
        {order.isPending ? (
          <div role="status" aria-label="載入出貨單">
            <SkeletonText lines={10} />
          </div>
        ) : missing ? (
          <EmptyState
            title="找不到這筆訂單"
            description={`訂單編號「${orderNo}」不存在。`}
            action={<ButtonLink to={adminPath.orders()}>回訂單列表</ButtonLink>}
          />
        ) : (
          <LoadError title="出貨單暫時無法載入" query={order} />
        )}
      </div>
    );
  }

  const o = order.data;
  const s = o.shipping;
  return (
    <div id="packing-slip" className="mx-auto flex max-w-3xl flex-col gap-6 text-ink">
      <style>{PRINT_CSS}</style>
      {toolbar}
      <article
        className="slip-sheet flex flex-col gap-6 rounded-xl border border-line bg-surface p-6 sm:p-10"
        aria-label={`出貨單 ${o.orderNo}`}
      >
        <header className="flex flex-wrap items-start justify-between gap-4 border-b-2 border-ink pb-4">
          <div>
            <p className="font-serif text-2xl">{BRAND.name}</p>
            <p className="text-sm text-ink-muted">{BRAND.address}</p>
            <p className="text-sm text-ink-muted">
              客服電話 <span className="tabular">{BRAND.phone}</span>・{BRAND.email}
            </p>
          </div>
          <div className="sm:text-right print:text-right">
            <h1 className="font-serif text-2xl tracking-widest">出貨單</h1>
            <p className="tabular text-lg font-semibold">{o.orderNo}</p>
            <p className="tabular text-sm text-ink-muted">
              訂購日期 {formatTaipeiDateTime(o.placedAt).slice(0, 10)}
            </p>
          </div>
        </header>

        <section aria-label="收件資訊" className="grid gap-4 sm:grid-cols-2">
          <div>
            <h2 className="mb-1 text-sm font-semibold text-ink-muted">
              {s.method === 'home' ? '收件人' : '取件人'}
            </h2>
            <p className="text-lg font-semibold">{s.recipientName}</p>
            <p className="tabular">{s.phone}</p>
          </div>
          <div>
            <h2 className="mb-1 text-sm font-semibold text-ink-muted">
              {s.method === 'home' ? '宅配地址' : '取貨門市'}
            </h2>
            {s.method === 'home' ? (
              <p className="text-lg">
                <span className="tabular">{s.postalCode}</span> {s.address}
              </p>
            ) : (
              <>
                <p className="text-lg">
                  {s.storeName}（店號 <span className="tabular">{s.storeId}</span>）
                </p>
                <p className="text-sm text-ink-muted">{s.storeAddress}</p>
              </>
            )}
            <p className="mt-1 text-sm text-ink-muted">
              {SHIPPING_METHOD_LABELS[s.method]}
              {o.paymentMethod === 'cod' ? '・貨到付款' : ''}
              {o.shipment?.carrier ? `・${o.shipment.carrier}` : ''}
              {o.shipment?.trackingNo ? ` ${o.shipment.trackingNo}` : ''}
            </p>
          </div>
        </section>

        {o.paymentMethod === 'cod' && (
          <p className="flex items-baseline justify-between gap-4 rounded-lg border-2 border-ink px-4 py-3">
            <span className="font-semibold">貨到付款・代收金額</span>
            <span className="tabular text-2xl font-semibold">{formatTwd(o.amounts.total)}</span>
          </p>
        )}

        <table className="w-full text-sm">
          <caption className="sr-only">出貨商品</caption>
          <thead>
            <tr className="border-y border-ink text-left">
              <th scope="col" className="w-10 py-2 pr-2 font-semibold">
                #
              </th>
              <th scope="col" className="py-2 pr-2 font-semibold">
                商品
              </th>
              <th scope="col" className="py-2 pr-2 font-semibold">
                SKU
              </th>
              <th scope="col" className="py-2 pr-2 text-right font-semibold whitespace-nowrap">
                數量
              </th>
              <th scope="col" className="w-12 py-2 text-center font-semibold whitespace-nowrap">
                核對
              </th>
            </tr>
          </thead>
          <tbody>
            {o.items.map((item, n) => (
              <tr key={item.sku} className="border-b border-line">
                <td className="tabular py-2.5 pr-2 text-ink-muted">{n + 1}</td>
                <td className="py-2.5 pr-2">
                  {item.productName}
                  <span className="text-ink-muted">（{item.variantLabel}）</span>
                </td>
                <td className="py-2.5 pr-2 font-mono text-xs break-all">{item.sku}</td>
                <td className="tabular py-2.5 pr-2 text-right text-base font-semibold">{item.quantity}</td>
                <td className="py-2.5 text-center">
                  <span className="inline-block size-4 border border-ink" aria-hidden="true" />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-b border-ink">
              <td />
              <td colSpan={2} className="py-2 text-right font-semibold">
                合計
              </td>
              <td className="tabular py-2 pr-2 text-right text-base font-semibold">{o.itemCount}</td>
              <td />
            </tr>
          </tfoot>
        </table>

        <section aria-label="備註" className="rounded-lg border border-line p-4">
          <h2 className="mb-1 text-sm font-semibold text-ink-muted">顧客備註</h2>
          <p className="whitespace-pre-wrap">{o.note || '（無）'}</p>
        </section>

        <footer className="flex flex-wrap items-end justify-between gap-4 text-sm text-ink-muted">
          <p>感謝您選購{BRAND.name}。商品如有任何問題，請於收到後 7 日內與我們聯絡。</p>
          <p className="flex gap-6">
            <span>撿貨 ________</span>
            <span>包裝 ________</span>
          </p>
        </footer>
      </article>
    </div>
  );
}
