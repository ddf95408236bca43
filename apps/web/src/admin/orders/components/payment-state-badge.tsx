import {
  REPLACED_PAYMENT_LABEL,
  paymentStateLabel,
  paymentStateText,
  type AdminOrderRow,
  type PaymentState,
} from '@shop/shared/admin-orders';
import type { OrderStatus } from '@shop/shared/order-status';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const PAYMENT_TONES: Record<PaymentState, BadgeTone> = {
  pending: 'amber',
  waiting_transfer: 'amber',
  paid: 'success',
  failed: 'danger',
};

/**
 * A payment's state as a small badge. With the order (lists), an attempt left open on a cancelled
 * or expired order reads 「未付款」 and cash on delivery 「到貨收款」; alone, it is the attempt's state,
 * or 「已由後續付款取代」 for an open attempt a later one replaced (it will not be paid).
 */
export function PaymentStateBadge({
  state,
  order,
  method,
  replaced = false,
  cancelled = false,
}: {
  state: PaymentState | null;
  order?: { paymentMethod: AdminOrderRow['paymentMethod']; status: OrderStatus };
  /** Alone: the attempt's method (a store code waits for 超商繳費, not a transfer). */
  method?: string;
  replaced?: boolean;
  /** The shopper cancelled this attempt on the gateway's page (LINE Pay): not a failure. */
  cancelled?: boolean;
}) {
  if (replaced) return <Badge tone="neutral">{REPLACED_PAYMENT_LABEL}</Badge>;
  if (cancelled && state === 'failed') return <Badge tone="neutral">會員已取消</Badge>;
  const text = order
    ? paymentStateText(order.paymentMethod, state, order.status)
    : state
      ? paymentStateLabel(method ?? '', state)
      : '未付款';
  const own = state ? paymentStateLabel(order?.paymentMethod ?? method ?? '', state) : null;
  const tone: BadgeTone = !state || text !== own ? 'neutral' : PAYMENT_TONES[state];
  return <Badge tone={tone}>{text}</Badge>;
}
