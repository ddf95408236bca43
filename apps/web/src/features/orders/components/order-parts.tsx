import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { formatTwd } from '@shop/shared/money';
import {
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  SHIPMENT_EVENT_LABELS,
  pickupDeadline,
  type OrderStatus,
} from '@shop/shared/order-status';
import type { OrderDetail } from '@shop/shared/orders';
import type { ReturnView } from '@shop/shared/returns';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { inSentence } from '@shop/shared/text';
import { installmentWords } from '@shop/shared/store-payments';
import { errorMessage } from '../../../lib/form.ts';
import { submitPaymentForm } from '../../../lib/payment-form.ts';
import { cancelOrder, payOrderAgain } from '../api/orders-api.ts';
import { formatTaipeiDateTime, formatTaipeiLongDate } from '@shop/shared/taipei-time';

const TONES: Record<OrderStatus, BadgeTone> = {
  pending_payment: 'amber',
  payment_failed: 'danger',
  paid: 'tea',
  processing: 'tea',
  shipped: 'tea',
  returned: 'amber',
  delivered: 'success',
  completed: 'success',
  expired: 'neutral',
  cancelled: 'neutral',
  refunded: 'neutral',
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={TONES[status]}>{ORDER_STATUS_LABELS[status]}</Badge>;
}

/** yyyy/MM/dd HH:mm in Taiwan time. */
export function formatDateTime(iso: string): string {
  return formatTaipeiDateTime(iso);
}

/** A deadline as a shopper says it: only the time when it is today (Taiwan time), else the date too. */
export function formatDeadline(iso: string, now = new Date()): string {
  const at = formatDateTime(iso);
  return at.slice(0, 10) === formatDateTime(now.toISOString()).slice(0, 10) ? at.slice(11) : at;
}

export function OrderItems({ order }: { order: OrderDetail }) {
  return (
    <ul className="divide-y divide-line">
      {order.items.map((i) => (
        <li key={i.sku} className="flex gap-3 py-3">
          {i.imageSrc ? (
            <img
              src={i.imageSrc}
              alt=""
              width={64}
              height={80}
              className="aspect-[4/5] w-14 shrink-0 rounded border border-line object-cover"
            />
          ) : (
            <div className="aspect-[4/5] w-14 shrink-0 rounded border border-line bg-paper" />
          )}
          <div className="flex min-w-0 flex-1 flex-wrap justify-between gap-2">
            <div>
              <p className="font-medium">{i.productName}</p>
              <p className="text-sm text-ink-muted">
                {i.variantLabel}・{formatTwd(i.unitPrice)} × {i.quantity}
              </p>
            </div>
            <p className="tabular font-medium">{formatTwd(i.lineTotal)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * One discount in an amounts list (here, /payComplete, the order pages and the console): the name
 * breaks only between its words (never inside 「3%」 or 「NT$100」), and the amount never parts
 * from its minus sign (a real minus, −).
 */
export function DiscountLine({ label, amount }: { label: string; amount: number }) {
  return (
    <div className="flex justify-between gap-3 text-[#8a5a2a]">
      <dt className="min-w-0 break-keep wrap-anywhere">{label}</dt>
      <dd className="tabular shrink-0 whitespace-nowrap">−{formatTwd(amount)}</dd>
    </div>
  );
}

/**
 * How a return's refund is reached from what its items cost: their price, less their share of the
 * order's discounts (a coupon's share is why NT$850 comes back as NT$771), plus what else of the
 * total comes back with the last items (shipping, fees). Used by the member's order page and the
 * console, so both say the same sum.
 */
export function ReturnAmounts({
  ret,
  total = '退款金額',
}: {
  ret: Pick<ReturnView, 'amount' | 'items'>;
  total?: string;
}) {
  const price = ret.items.reduce((n, i) => n + i.price, 0);
  const net = ret.items.reduce((n, i) => n + i.amount, 0);
  const rest = ret.amount - net;
  return (
    <dl className="flex flex-col gap-1 text-sm" data-testid="return-amounts">
      <div className="flex justify-between gap-3">
        <dt className="text-ink-muted">退貨商品金額</dt>
        <dd className="tabular shrink-0 whitespace-nowrap">{formatTwd(price)}</dd>
      </div>
      {price > net && <DiscountLine label="扣除訂單優惠分攤" amount={price - net} />}
      {rest !== 0 && (
        <div className="flex justify-between gap-3">
          <dt className="text-ink-muted">{rest > 0 ? '運費等其餘訂單金額' : '扣除先前已退金額'}</dt>
          <dd className="tabular shrink-0 whitespace-nowrap">
            {rest > 0 ? formatTwd(rest) : `−${formatTwd(-rest)}`}
          </dd>
        </div>
      )}
      <div className="flex justify-between gap-3 border-t border-line pt-1 font-semibold">
        <dt>{total}</dt>
        <dd className="tabular shrink-0 whitespace-nowrap">{formatTwd(ret.amount)}</dd>
      </div>
    </dl>
  );
}

/**
 * Where and until when to transfer, as on /payComplete, the order page and the mail: the bank by
 * code and name, the account in groups of four with a copy button (it copies the digits alone),
 * the amount, and the deadline with its time (the server words the bank and the deadline).
 */
export function AtmDetails({
  atm,
  total,
}: {
  atm: NonNullable<NonNullable<OrderDetail['payment']>['atm']>;
  total: number;
}) {
  return (
    <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-6 gap-y-2 text-ink">
      <dt className="text-ink-muted">銀行代碼</dt>
      <dd className="tabular font-medium" data-testid="atm-bank">
        {atm.bank}
      </dd>
      <dt className="text-ink-muted">虛擬帳號</dt>
      <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span
          className="tabular text-lg font-semibold tracking-wider whitespace-nowrap select-all"
          data-testid="atm-account"
        >
          {atm.account.replace(/(\d{4})(?=\d)/g, '$1 ')}
        </span>
        <CopyButton text={atm.account} what="虛擬帳號" />
      </dd>
      <dt className="text-ink-muted">轉帳金額</dt>
      <dd className="tabular font-medium">{formatTwd(total)}</dd>
      <dt className="text-ink-muted">繳費期限</dt>
      <dd className="tabular" data-testid="atm-deadline">
        {atm.deadline} 前
      </dd>
    </dl>
  );
}

export function OrderAmounts({ order }: { order: OrderDetail }) {
  return (
    <dl className="flex flex-col gap-2 text-sm">
      <div className="flex justify-between">
        <dt className="text-ink-muted">商品小計</dt>
        <dd className="tabular">{formatTwd(order.subtotal)}</dd>
      </div>
      {order.discounts.map((d) => (
        <DiscountLine key={d.label} label={d.label} amount={d.amount} />
      ))}
      <div className="flex justify-between">
        <dt className="text-ink-muted">運費與手續費</dt>
        <dd className="tabular">{formatTwd(order.shippingFee)}</dd>
      </div>
      <div className="flex justify-between border-t border-line pt-2 text-base font-semibold">
        <dt>總計</dt>
        <dd className="tabular" data-testid="order-detail-total">
          {formatTwd(order.total)}
        </dd>
      </div>
      <div className="flex justify-between text-ink-muted">
        <dt>付款方式</dt>
        <dd className="text-right">
          {PAYMENT_METHOD_LABELS[order.paymentMethod]}
          {order.installments ? (
            <span className="block text-xs" data-testid="order-installments">
              {installmentWords(order.total, order.installments)}
            </span>
          ) : null}
        </dd>
      </div>
    </dl>
  );
}

/**
 * The order's history, oldest first as the server lists it (the shipment slip before 已出貨), with
 * shipment events and their places; the newest step is the current one, marked for screen readers too.
 */
export function OrderTimeline({ order }: { order: OrderDetail }) {
  const events = timelineSteps(order.events);
  return (
    <ol className="relative ml-3 border-l-2 border-line" aria-label="訂單進度">
      {events.map(({ title, ...e }, i) => {
        const latest = i === events.length - 1;
        return (
          <li
            key={`${e.at}-${i}`}
            className="relative pb-5 pl-6 last:pb-0"
            aria-current={latest ? 'step' : undefined}
          >
            <span
              className={`absolute top-1.5 -left-[7px] size-3 rounded-full ${latest ? 'bg-tea ring-4 ring-tea-soft' : 'bg-line'}`}
              aria-hidden="true"
            />
            <p className={latest ? 'font-semibold text-tea-dark' : 'font-medium'}>{title}</p>
            <p className="tabular text-sm text-ink-muted">
              {formatDateTime(e.at)}
              {e.location ? `・${e.location}` : ''}
            </p>
            {(e.note || e.carrier || e.trackingNo) && (
              <p className="text-sm text-ink-muted">
                {[
                  e.note,
                  e.carrier && `物流：${e.carrier}`,
                  e.trackingNo && !e.tracking && `追蹤編號：${e.trackingNo}`,
                ]
                  .filter(Boolean)
                  .join('，')}
              </p>
            )}
            {e.trackingNo && e.tracking && (
              <TrackingLink carrier={e.carrier ?? ''} trackingNo={e.trackingNo} tracking={e.tracking} />
            )}
            {e.shipmentEvent === 'arrived_at_store' && order.status === 'shipped' && (
              <p
                className="mt-1 rounded-md bg-tea-soft px-3 py-2 text-sm text-tea-dark"
                data-testid="pickup-deadline"
              >
                已到店，請於 {formatTaipeiLongDate(pickupDeadline(new Date(e.at)))}前攜帶證件取貨
                {order.paymentMethod === 'cod' ? `，取貨時付款 ${formatTwd(order.total)}` : ''}。
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

type TimelineEvent = OrderDetail['events'][number];

const stepTitle = (e: TimelineEvent) =>
  e.kind === 'shipment' && e.shipmentEvent
    ? SHIPMENT_EVENT_LABELS[e.shipmentEvent]
    : e.status
      ? ORDER_STATUS_LABELS[e.status]
      : '更新';

/**
 * The order's events as the member's timeline lists them: a delivery is written twice, as the
 * parcel's step and as the order's status (「已送達」 both, in the same minute, often with the same
 * note); they are one step here, their notes said once.
 */
export function timelineSteps(events: readonly TimelineEvent[]): Array<TimelineEvent & { title: string }> {
  const steps: Array<TimelineEvent & { title: string }> = [];
  let paired = false;
  for (const e of events) {
    const title = stepTitle(e);
    const last = steps.at(-1);
    // Only the parcel's step and the status it brought: any other note (a return asked for in the
    // same minute) stays a step of its own.
    if (
      last &&
      !paired &&
      last.kind !== e.kind &&
      last.title === title &&
      formatDateTime(last.at) === formatDateTime(e.at)
    ) {
      paired = true;
      const notes = [last.note, e.note].filter((n): n is string => Boolean(n));
      steps[steps.length - 1] = {
        ...last,
        note: [...new Set(notes)].join('，') || null,
        location: last.location ?? e.location,
        carrier: last.carrier ?? e.carrier,
        trackingNo: last.trackingNo ?? e.trackingNo,
        tracking: last.tracking ?? e.tracking,
      };
      continue;
    }
    paired = false;
    steps.push({ ...e, title });
  }
  return steps;
}

/**
 * The parcel on the carrier's site: a link that opens it, or (carriers that ask for the number on
 * their own page) the number with a copy button beside a link to that page. A carrier we have no
 * page for shows the number alone.
 */
export function TrackingLink({
  carrier,
  trackingNo,
  tracking,
}: {
  carrier: string;
  trackingNo: string;
  tracking: OrderDetail['events'][number]['tracking'];
}) {
  const link = 'font-medium text-tea-dark underline underline-offset-2 hover:text-tea';
  if (tracking?.opensParcel) {
    return (
      <p className="text-sm text-ink-muted">
        追蹤編號：
        <a
          href={tracking.url}
          target="_blank"
          rel="noopener noreferrer"
          className={`tabular break-all ${link}`}
        >
          {trackingNo}
          <span className="sr-only">（在物流業者網站查詢貨態，另開新視窗）</span>
        </a>
      </p>
    );
  }
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-muted">
      <span>
        追蹤編號：<span className="tabular select-all break-all text-ink">{trackingNo}</span>
      </span>
      <CopyButton text={trackingNo} what="追蹤編號" className={link} />
      {tracking && (
        <a href={tracking.url} target="_blank" rel="noopener noreferrer" className={link}>
          到{inSentence(carrier)}網站查詢
          <span className="sr-only">（另開新視窗，貼上追蹤編號）</span>
        </a>
      )}
    </p>
  );
}

/** Pay again (new payment attempt) and cancel, for orders that allow them. */
export function OrderActions({ order }: { order: OrderDetail }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<'pay' | 'cancel' | null>(null);
  const [asking, setAsking] = useState(false);
  if (!order.canPay && !order.canCancel) return null;
  const pay = async () => {
    setBusy('pay');
    try {
      submitPaymentForm((await payOrderAgain(order.orderNo)).payment);
    } catch (error) {
      toast.error(errorMessage(error));
      setBusy(null);
      // Refused because the order changed meanwhile (paid, expired): show it as it is now.
      await client.invalidateQueries({ queryKey: ['orders'] });
    }
  };
  const cancel = async () => {
    setAsking(false);
    setBusy('cancel');
    try {
      const cancelled = await cancelOrder(order.orderNo);
      toast.success(`訂單已取消。${cancelled.cartNote ?? ''}`);
      void client.invalidateQueries({ queryKey: ['cart'] });
      await client.invalidateQueries({ queryKey: ['orders'] });
    } catch (error) {
      toast.error(errorMessage(error));
      await client.invalidateQueries({ queryKey: ['orders'] });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      {order.canPay && order.expiresAt && (
        <p className="w-full text-sm text-ink">
          請於 <span className="tabular">{formatDeadline(order.expiresAt)}</span>{' '}
          前完成付款，逾時訂單會自動取消。
        </p>
      )}
      {order.canPay && (
        <Button loading={busy === 'pay'} disabled={busy !== null} onClick={() => void pay()}>
          {order.status === 'payment_failed' ? '重新付款' : '前往付款'}
        </Button>
      )}
      {order.canCancel && (
        <Button
          variant="secondary"
          loading={busy === 'cancel'}
          disabled={busy !== null}
          onClick={() => setAsking(true)}
        >
          取消訂單
        </Button>
      )}
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="取消這筆訂單？"
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              保留訂單
            </Button>
            <Button variant="danger" onClick={() => void cancel()}>
              確定取消
            </Button>
          </>
        }
      >
        <p className="leading-relaxed">
          訂單 <span className="tabular">{order.orderNo}</span> 取消後無法復原，{cancelConsequence(order)}
        </p>
      </Dialog>
    </div>
  );
}

/** What cancelling does with the goods and the money, by where the order stands. */
function cancelConsequence(order: Pick<OrderDetail, 'status' | 'paymentMethod' | 'total'>): string {
  if (order.status === 'pending_payment' || order.status === 'payment_failed')
    return '商品會放回您的購物車。';
  if (order.paymentMethod === 'cod') return '商品不會寄出，您也不需付款。';
  if (order.paymentMethod === 'credit_card')
    return `已付的 ${formatTwd(order.total)} 會退回您付款的信用卡，約 7–14 個工作天入帳。`;
  if (order.paymentMethod === 'line_pay')
    return `已付的 ${formatTwd(order.total)} 會退回您付款時使用的 LINE Pay 帳戶。`;
  return `已付的 ${formatTwd(order.total)} 會以轉帳退還，取消後請在訂單頁填寫退款帳戶。`;
}
