import { LINE_PAY_CANCELLED } from '@shop/shared/line-pay';
import { formatTwd } from '@shop/shared/money';
import type { OrderDetail } from '@shop/shared/orders';
import { Alert } from '../../../components/ui/alert.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { AtmDetails, OrderActions, OrderAmounts, formatDateTime } from './order-parts.tsx';
import { StoreCodeDetails } from './store-code-details.tsx';

export type Outcome = 'paid' | 'cod' | 'failed' | 'atm' | 'store' | 'waiting' | 'closed';

/** The outcome comes from the server's record of the order, never from the query string. */
export function outcomeOf(order: OrderDetail): Outcome {
  if (order.paymentMethod === 'cod')
    return ['cancelled', 'expired', 'refunded'].includes(order.status) ? 'closed' : 'cod';
  if (
    order.payment?.status === 'paid' ||
    ['paid', 'processing', 'shipped', 'delivered', 'completed'].includes(order.status)
  )
    return 'paid';
  if (['cancelled', 'expired', 'refunded'].includes(order.status)) return 'closed';
  if (order.status === 'payment_failed') return 'failed';
  if (order.payment?.status === 'waiting_transfer') return order.payment.store ? 'store' : 'atm';
  return 'waiting';
}

/** An order that ended, said for what ended it. */
function closedTitle(o: Pick<OrderDetail, 'status'>): string {
  if (o.status === 'expired') return '訂單已逾期取消';
  if (o.status === 'refunded') return '訂單已退款';
  return '訂單已取消';
}

/** The gateway's reason under the heading 付款未成功, without saying 付款未成功 again. */
export function failureReason(message: string | null | undefined): string {
  const reason = (message ?? '').replace(/^付款未成功[：:。]?\s*/, '');
  return reason ? `原因：${reason}` : '';
}

const TITLES: Record<Outcome, string> = {
  paid: '付款完成，謝謝您！',
  cod: '訂單已成立',
  failed: '付款未成功',
  atm: '請完成 ATM 轉帳',
  store: '請到超商繳費',
  waiting: '正在確認付款結果',
  closed: '訂單已結束',
};

function Icon({ outcome }: { outcome: Outcome }) {
  const good = outcome === 'paid' || outcome === 'cod';
  const bad = outcome === 'failed' || outcome === 'closed';
  return (
    <svg
      viewBox="0 0 48 48"
      className={`size-14 ${good ? 'text-success' : bad ? 'text-danger' : 'text-amber'}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="24" cy="24" r="20" />
      {good ? (
        <path d="m15 24 6 6 12-13" />
      ) : bad ? (
        <path d="M17 17l14 14M31 17 17 31" />
      ) : (
        <path d="M24 13v12l7 4" />
      )}
    </svg>
  );
}

/**
 * /payComplete once the order is loaded: where a payment stands and what to do next. `left`: the shopper came back from the gateway's page without paying
 * (the browser's Back to checkout): the order is there and waits to be paid, nothing is checked.
 */
export function PayOutcome({ order: o, left = false }: { order: OrderDetail; left?: boolean }) {
  const outcome = outcomeOf(o);
  // Cancelled on LINE Pay's page: nothing was tried, the order waits to be paid.
  const linePayCancelled = o.payment?.status === 'failed' && o.payment.message === LINE_PAY_CANCELLED;
  const unpaidLeft = (left && outcome === 'waiting') || linePayCancelled;
  return (
    <Container className="max-w-2xl py-10 sm:py-16">
      <div className="flex flex-col items-center gap-3 text-center" aria-live="polite">
        <Icon outcome={outcome} />
        <h1 className="font-serif text-2xl sm:text-3xl" data-testid="pay-outcome">
          {linePayCancelled
            ? LINE_PAY_CANCELLED
            : unpaidLeft
              ? '訂單已成立，尚未付款'
              : outcome === 'closed'
                ? closedTitle(o)
                : TITLES[outcome]}
        </h1>
        <p className="text-ink-muted">訂單編號 {o.orderNo}</p>
      </div>
      <div className="mt-8 flex flex-col gap-5 rounded-lg border border-line bg-surface p-5 sm:p-6">
        {outcome === 'paid' && (
          <p>我們已收到您的款項，茶師會在 1–3 個工作天內為您備貨出貨，出貨時會寄信通知您。</p>
        )}
        {outcome === 'cod' &&
          (o.shipping.method === 'cvs' ? (
            <p>
              商品到達「{o.shipping.store}」後會寄信通知您，請在門市櫃台付款 {formatTwd(o.total)}{' '}
              取貨（取貨付款）。我們會盡快為您出貨。
            </p>
          ) : (
            <p>商品送達時請準備現金 {formatTwd(o.total)} 交給配送人員。我們會盡快為您出貨。</p>
          ))}
        {outcome === 'failed' && (
          <Alert tone="error">
            {failureReason(o.payment?.message)}您可以重新付款，訂單與商品會為您保留到期限為止。
          </Alert>
        )}
        {outcome === 'waiting' &&
          (linePayCancelled ? (
            <p>
              訂單與商品會為您保留到付款期限，可以按「前往付款」再用 LINE Pay
              付款；想改用其他付款方式，請取消這筆訂單（商品會放回購物車）後重新結帳。
            </p>
          ) : unpaidLeft ? (
            <p>您離開了付款頁，訂單與商品會為您保留到付款期限，請按「前往付款」繼續。</p>
          ) : (
            <p>付款結果確認中，通常幾秒內就會更新，請稍候。若已關閉付款頁，您也可以重新付款。</p>
          ))}
        {outcome === 'closed' && (
          <p>
            {o.status === 'expired'
              ? '這筆訂單超過付款期限，已自動取消；還有庫存的商品已放回您的購物車，可以重新結帳。'
              : '這筆訂單已取消。'}
          </p>
        )}
        {outcome === 'atm' && o.payment?.atm && (
          <div className="rounded-md bg-amber-soft/50 p-4">
            <AtmDetails atm={o.payment.atm} total={o.total} />
          </div>
        )}
        {outcome === 'store' && o.payment?.store && (
          <div className="rounded-md bg-amber-soft/50 p-4">
            <StoreCodeDetails store={o.payment.store} total={o.total} />
          </div>
        )}
        {o.expiresAt && (outcome === 'waiting' || outcome === 'failed') && (
          <p className="text-sm text-ink-muted">付款期限：{formatDateTime(o.expiresAt)}</p>
        )}
        <OrderAmounts order={o} />
        <OrderActions order={o} />
      </div>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {/* An unpaid order that ended put its lines back in the cart: the way to order them again. */}
        {outcome === 'closed' && o.paymentMethod !== 'cod' && !o.payment?.paidAt && (
          <ButtonLink to={paths.cart()}>前往購物車</ButtonLink>
        )}
        <ButtonLink to={paths.orderDetail(o.orderNo)} variant="secondary">
          查看訂單明細
        </ButtonLink>
        <ButtonLink to={paths.mall()} variant="ghost">
          繼續購物
        </ButtonLink>
      </div>
    </Container>
  );
}
