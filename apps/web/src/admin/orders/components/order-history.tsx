import { ROLE_NAMES, isStaffRole, type AuditEntry } from '@shop/shared/admin';
import {
  ORDER_ACTIONS,
  ORDER_ACTION_LABELS,
  type AdminOrderDetail,
  type OrderAction,
} from '@shop/shared/admin-orders';
import {
  ORDER_STATUS_LABELS,
  SHIPMENT_EVENT_LABELS,
  type OrderStatus,
  type ShipmentEvent,
} from '@shop/shared/order-status';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

/** The order's history (status changes and shipment events), newest first. */
export function OrderHistory({ events }: { events: AdminOrderDetail['events'] }) {
  const newestFirst = [...events].reverse();
  return (
    <ol className="relative ml-1.5 border-l-2 border-line" aria-label="訂單歷程，新的在上">
      {newestFirst.map((e, i) => {
        const title =
          e.kind === 'shipment' && e.shipmentEvent
            ? SHIPMENT_EVENT_LABELS[e.shipmentEvent]
            : e.status
              ? ORDER_STATUS_LABELS[e.status]
              : '更新';
        const details = [
          e.location,
          e.carrier && `物流：${e.carrier}`,
          e.trackingNo && `追蹤編號：${e.trackingNo}`,
        ]
          .filter(Boolean)
          .join('・');
        return (
          <li key={`${e.at}-${i}`} className="relative pb-4 pl-5 last:pb-0">
            <span
              className={`absolute top-1.5 -left-[7px] size-3 rounded-full ${i === 0 ? 'bg-tea ring-4 ring-tea-soft' : 'bg-line'}`}
              aria-hidden="true"
            />
            <p className="flex flex-wrap items-baseline gap-x-3">
              <span className={i === 0 ? 'font-semibold text-tea-dark' : 'font-medium'}>
                {e.kind === 'shipment' ? '配送：' : ''}
                {title}
              </span>
              <time dateTime={e.at} className="tabular text-sm text-ink-muted">
                {formatTaipeiDateTime(e.at)}
              </time>
            </p>
            {details && <p className="text-sm text-ink-muted">{details}</p>}
            {e.note && <p className="text-sm">{e.note}</p>}
          </li>
        );
      })}
    </ol>
  );
}

const isAction = (name: string): name is OrderAction => (ORDER_ACTIONS as readonly string[]).includes(name);

function actionName(action: string): string {
  const name = action.replace(/^order\./, '');
  if (isAction(name)) return ORDER_ACTION_LABELS[name];
  if (name === 'advance') return '推進訂單（指令列）';
  return action;
}

const statusName = (v: unknown) =>
  typeof v === 'string' && v in ORDER_STATUS_LABELS ? ORDER_STATUS_LABELS[v as OrderStatus] : null;

function describe(entry: AuditEntry): string {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  const from = statusName(before.status);
  const to = statusName(after.status);
  if (from && to && from !== to) parts.push(`${from} → ${to}`);
  else if (to && !from) parts.push(`改為 ${to}`);
  if (typeof after.carrier === 'string') parts.push(after.carrier);
  if (typeof after.trackingNo === 'string') parts.push(`追蹤編號 ${after.trackingNo}`);
  if (typeof after.event === 'string' && after.event in SHIPMENT_EVENT_LABELS)
    parts.push(SHIPMENT_EVENT_LABELS[after.event as ShipmentEvent]);
  if (typeof after.shipmentEvent === 'string' && after.shipmentEvent in SHIPMENT_EVENT_LABELS)
    parts.push(SHIPMENT_EVENT_LABELS[after.shipmentEvent as ShipmentEvent]);
  if (typeof after.location === 'string') parts.push(after.location);
  if (typeof after.reason === 'string') parts.push(`原因：${after.reason}`);
  return parts.join('・');
}

/** Who did what to this order in the console (the owner's view of the audit trail). */
export function OrderOperations({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0)
    return <p className="text-sm text-ink-muted">還沒有人在管理後台處理過這筆訂單。</p>;
  return (
    <ul className="flex flex-col divide-y divide-line text-sm">
      {entries.map((e) => (
        <li key={e.id} className="py-2 first:pt-0 last:pb-0">
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium">{actionName(e.action)}</span>
            <time dateTime={e.at} className="tabular text-ink-muted">
              {formatTaipeiDateTime(e.at)}
            </time>
          </p>
          <p className="break-all text-ink-muted">
            {e.actorEmail === 'command-line' ? '指令列' : e.actorEmail}
            {isStaffRole(e.actorRole) ? `（${ROLE_NAMES[e.actorRole]}）` : ''}
          </p>
          {describe(e) && <p>{describe(e)}</p>}
        </li>
      ))}
    </ul>
  );
}
