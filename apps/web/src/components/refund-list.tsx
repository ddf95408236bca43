import type { RefundView } from '@shop/shared/orders';
import { formatTwd } from '@shop/shared/money';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

const STATUS: Record<RefundView['status'], string> = {
  pending: '退款處理中',
  done: '已退款',
  failed: '退款未完成，客服會與您聯絡',
};
const METHOD: Record<RefundView['method'], string> = {
  card: '退回信用卡',
  transfer: '匯款退回',
  line_pay: '退回 LINE Pay',
};

/** The money given back on an order, each with where it stands. */
export function RefundList({ refunds }: { refunds: readonly RefundView[] }) {
  if (refunds.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2 text-sm" aria-label="退款紀錄">
      {refunds.map((r) => (
        <li key={r.createdAt}>
          <span className="tabular font-medium">{formatTwd(r.amount)}</span>・{METHOD[r.method]}・
          <span
            className={
              r.status === 'done' ? 'text-success' : r.status === 'failed' ? 'text-danger' : 'text-ink-muted'
            }
          >
            {STATUS[r.status]}
          </span>
          <span className="block text-ink-muted">
            {r.reason}
            {r.doneAt && <span className="tabular">（{formatTaipeiDateTime(r.doneAt)}）</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
