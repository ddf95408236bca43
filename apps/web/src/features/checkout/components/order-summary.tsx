import { LINE_PAY_NEXT_STEP } from '@shop/shared/line-pay';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CartResponse } from '@shop/shared/cart';
import { CheckoutErrorCode, type QuoteResponse } from '@shop/shared/checkout';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import type { CheckoutForm } from '../schema.ts';

/** What the submit button says for each way of paying (the rest: 送出訂單並付款). */
const SUBMIT_LABELS: Partial<Record<CheckoutForm['paymentMethod'], string>> = {
  cod: '送出訂單',
  atm: '送出訂單並取得轉帳帳號',
  line_pay: '送出訂單並前往 LINE Pay',
  cvs_code: '送出訂單並取得繳費代碼',
  cvs_barcode: '送出訂單並取得繳費條碼',
};

interface OrderSummaryProps {
  lines: CartResponse['lines'];
  /** The server's quote; amounts show 「…」 until it arrives. */
  quote: QuoteResponse | undefined;
  quoting: boolean;
  /** The amounts are not the current choice's yet (the new quote is on its way): 送出訂單 waits. */
  recalculating: boolean;
  formError: { message: string; code: string | null } | null;
  paymentMethod: CheckoutForm['paymentMethod'];
  submitting: boolean;
  redirecting: boolean;
  /** Lines with a stock problem, or an unverified address, hold the order back. */
  blocked: boolean;
}

/** The cart's lines as the summary lists them. */
function SummaryLines({ lines }: { lines: CartResponse['lines'] }) {
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {lines.map((l) => (
        <li key={l.variantId} className="flex justify-between gap-3">
          {/* 「× 1」 stays with the name's last characters: never alone on a line. */}
          <span className="min-w-0">
            {l.name}（{l.variantLabel.slice(0, -1)}
            <span className="whitespace-nowrap">
              {l.variantLabel.slice(-1)}）× {l.quantity}
            </span>
          </span>
          <span className="tabular shrink-0">{formatTwd(l.lineTotal)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Subtotal, discounts, shipping and the total, from the server's quote. */
function SummaryAmounts({
  quote: q,
  recalculating,
  totalTestId,
}: {
  quote: QuoteResponse | undefined;
  recalculating: boolean;
  totalTestId?: string;
}) {
  return (
    <div className={cn('flex flex-col gap-2 transition-opacity', recalculating && q && 'opacity-50')}>
      <div className="flex justify-between gap-3">
        <dt className="text-ink-muted">商品小計</dt>
        <dd className="tabular">{q ? formatTwd(q.subtotal) : '…'}</dd>
      </div>
      {/* A name breaks only between its words, and an amount never parts from its minus sign (−). */}
      {q?.discounts.map((d) => (
        <div key={d.label} className="flex justify-between gap-3 text-[#8a5a2a]">
          <dt className="min-w-0 break-keep wrap-anywhere">{d.label}</dt>
          <dd className="tabular shrink-0 whitespace-nowrap">−{formatTwd(d.amount)}</dd>
        </div>
      ))}
      {q?.shippingLines.map((l) => (
        <div key={l.label} className="flex justify-between gap-3">
          <dt className="min-w-0 break-keep wrap-anywhere text-ink-muted">{l.label}</dt>
          <dd className="tabular shrink-0 whitespace-nowrap">{formatTwd(l.amount)}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-3 border-t border-line pt-3 text-base font-semibold">
        <dt>應付總額</dt>
        <dd className="tabular" data-testid={totalTestId} aria-busy={recalculating}>
          {q ? formatTwd(q.total) : '…'}
        </dd>
      </div>
    </div>
  );
}

/** Said under the amounts while they are the previous choice's. */
function Recalculating() {
  return (
    <p
      role="status"
      className="flex items-center gap-2 text-sm text-ink-muted"
      data-testid="quote-recalculating"
    >
      <Spinner className="size-4" />
      重新計算金額中…
    </p>
  );
}

/**
 * On a phone the summary panel comes after the whole form: a bar at the top of the checkout shows
 * the total and opens the same summary in place (as Shopify's checkout does). Hidden from lg up,
 * where the panel sits beside the form.
 */
export function MobileOrderSummary({
  lines,
  quote: q,
  recalculating,
}: {
  lines: CartResponse['lines'];
  quote: QuoteResponse | undefined;
  recalculating: boolean;
}) {
  const count = lines.reduce((n, l) => n + l.quantity, 0);
  // The lines and amounts are drawn only while open: the panel below says the same, once.
  const [open, setOpen] = useState(false);
  return (
    <details
      className="group rounded-lg border border-line bg-surface lg:hidden"
      data-testid="mobile-summary"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2 font-medium text-tea-dark">
          <svg
            viewBox="0 0 20 20"
            className="size-4 transition-transform group-open:rotate-180"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path d="m5 8 5 5 5-5" />
          </svg>
          <span className="group-open:hidden">顯示訂單摘要</span>
          <span className="hidden group-open:inline">收合訂單摘要</span>
          <span className="text-sm font-normal text-ink-muted">（共 {count} 件）</span>
        </span>
        <span
          className={cn('tabular text-lg font-semibold', recalculating && q && 'text-ink-muted')}
          data-testid="mobile-summary-total"
          aria-busy={recalculating}
        >
          {recalculating && q ? <Spinner className="mr-1.5 inline size-4 align-[-2px]" /> : null}
          {q ? formatTwd(q.total) : '…'}
        </span>
      </summary>
      {open && (
        <div className="flex flex-col gap-4 border-t border-line px-4 py-4">
          <SummaryLines lines={lines} />
          <dl className="border-t border-line pt-4 text-sm">
            <SummaryAmounts quote={q} recalculating={recalculating} />
          </dl>
        </div>
      )}
    </details>
  );
}

/** The checkout's side panel: lines, the server's amounts, the refusal if any, and the submit button. */
export function OrderSummary({
  lines,
  quote: q,
  quoting,
  recalculating,
  formError,
  paymentMethod,
  submitting,
  redirecting,
  blocked,
}: OrderSummaryProps) {
  return (
    <aside
      className="flex h-fit flex-col gap-4 rounded-lg border border-line bg-surface p-5 lg:sticky lg:top-24"
      aria-labelledby="summary-title"
    >
      <h2 id="summary-title" className="text-lg font-semibold">
        訂單摘要
      </h2>
      <SummaryLines lines={lines} />
      <dl className="border-t border-line pt-4 text-sm" aria-live="polite" aria-busy={quoting}>
        <SummaryAmounts quote={q} recalculating={recalculating} totalTestId="order-total" />
      </dl>
      {recalculating && q && <Recalculating />}
      {q && (q.toFreeShipping > 0 || q.outlyingSurcharge > 0) && (
        <p className="text-xs text-ink-muted" data-testid="free-shipping-hint">
          {q.toFreeShipping > 0 ? `再買 ${formatTwd(q.toFreeShipping)} 即可免運費` : '已達免運門檻'}
          {q.outlyingSurcharge > 0
            ? `；離島加收的 ${formatTwd(q.outlyingSurcharge)} 不適用免運，仍會收取。`
            : '。'}
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
      <Button type="submit" size="lg" loading={submitting || redirecting} disabled={blocked || recalculating}>
        {redirecting
          ? paymentMethod === 'line_pay'
            ? '前往 LINE Pay…'
            : '前往付款頁…'
          : submitting
            ? '訂單送出中…'
            : recalculating
              ? '金額計算中…'
              : (SUBMIT_LABELS[paymentMethod] ?? '送出訂單並付款')}
      </Button>
      {paymentMethod === 'line_pay' && <p className="text-sm text-ink-muted">{LINE_PAY_NEXT_STEP}。</p>}
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
