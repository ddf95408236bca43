import { Link } from 'react-router';
import type { CartResponse } from '@shop/shared/cart';
import { CheckoutErrorCode, type QuoteResponse } from '@shop/shared/checkout';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import type { CheckoutForm } from '../schema.ts';

interface OrderSummaryProps {
  lines: CartResponse['lines'];
  /** The server's quote; amounts show 「…」 until it arrives. */
  quote: QuoteResponse | undefined;
  quoting: boolean;
  formError: { message: string; code: string | null } | null;
  paymentMethod: CheckoutForm['paymentMethod'];
  submitting: boolean;
  redirecting: boolean;
  /** Lines with a stock problem, or an unverified address, hold the order back. */
  blocked: boolean;
}

/** The checkout's side panel: lines, the server's amounts, the refusal if any, and the submit button. */
export function OrderSummary({ lines, quote: q, quoting, formError, paymentMethod, submitting, redirecting, blocked }: OrderSummaryProps) {
  return (
    <aside className="flex h-fit flex-col gap-4 rounded-lg border border-line bg-surface p-5 lg:sticky lg:top-24" aria-labelledby="summary-title">
      <h2 id="summary-title" className="text-lg font-semibold">
        訂單摘要
      </h2>
      <ul className="flex flex-col gap-2 text-sm">
        {lines.map((l) => (
          <li key={l.variantId} className="flex justify-between gap-3">
            <span className="min-w-0">
              {l.name}（{l.variantLabel}）× {l.quantity}
            </span>
            <span className="tabular shrink-0">{formatTwd(l.lineTotal)}</span>
          </li>
        ))}
      </ul>
      <dl className="flex flex-col gap-2 border-t border-line pt-4 text-sm" aria-live="polite" aria-busy={quoting}>
        <div className="flex justify-between">
          <dt className="text-ink-muted">商品小計</dt>
          <dd className="tabular">{q ? formatTwd(q.subtotal) : '…'}</dd>
        </div>
        {q?.discounts.map((d) => (
          <div key={d.label} className="flex justify-between text-[#8a5a2a]">
            <dt>{d.label}</dt>
            <dd className="tabular">-{formatTwd(d.amount)}</dd>
          </div>
        ))}
        {q?.shippingLines.map((l) => (
          <div key={l.label} className="flex justify-between">
            <dt className="text-ink-muted">{l.label}</dt>
            <dd className="tabular">{formatTwd(l.amount)}</dd>
          </div>
        ))}
        <div className="flex justify-between border-t border-line pt-3 text-base font-semibold">
          <dt>應付總額</dt>
          <dd className="tabular" data-testid="order-total">
            {q ? formatTwd(q.total) : '…'}
          </dd>
        </div>
      </dl>
      {q && (q.toFreeShipping > 0 || q.outlyingSurcharge > 0) && (
        <p className="text-xs text-ink-muted" data-testid="free-shipping-hint">
          {q.toFreeShipping > 0 ? `再買 ${formatTwd(q.toFreeShipping)} 即可免運費` : '已達免運門檻'}
          {q.outlyingSurcharge > 0 ? `；離島加收的 ${formatTwd(q.outlyingSurcharge)} 不適用免運，仍會收取。` : '。'}
        </p>
      )}
      {formError && (
        <Alert
          tone="error"
          action={
            formError.code === CheckoutErrorCode.tooManyOpenOrders ? (
              <Link to={paths.orderList()} className={textLinkClass}>
                前往訂單查詢
              </Link>
            ) : (
              <Link to={paths.cart()} className={textLinkClass}>
                回購物車
              </Link>
            )
          }
        >
          {formError.message}
        </Alert>
      )}
      <Button type="submit" size="lg" loading={submitting || redirecting} disabled={blocked}>
        {redirecting ? '前往付款頁…' : submitting ? '訂單送出中…' : paymentMethod === 'cod' ? '送出訂單' : paymentMethod === 'atm' ? '送出訂單並取得轉帳帳號' : '送出訂單並付款'}
      </Button>
      <p className="text-xs text-ink-muted">
        送出訂單即表示您同意
        <Link to={paths.serviceTerms()} className={textLinkClass}>
          服務條款
        </Link>
        。
      </p>
    </aside>
  );
}
