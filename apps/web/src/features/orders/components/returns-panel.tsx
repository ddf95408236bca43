import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { OrderDetail } from '@shop/shared/orders';
import { RETURN_STATUS_LABELS, RefundAccount, type ReturnView } from '@shop/shared/returns';
import { RefundList } from '../../../components/refund-list.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { giveRefundAccount, orderQueryOptions } from '../api/orders-api.ts';
import { formatDateTime, ReturnAmounts } from './order-parts.tsx';
import { BankFields, ReturnForm } from './return-form.tsx';

const TONES: Record<ReturnView['status'], BadgeTone> = {
  requested: 'amber',
  approved: 'tea',
  refused: 'neutral',
  received: 'success',
};

/** Where a return stands, in the member's words: the refund's own state once the goods are back. */
function stage(r: ReturnView): string {
  if (r.status !== 'received') return RETURN_STATUS_LABELS[r.status];
  if (r.refund?.status === 'done') return '已退款';
  return '已收到退貨，退款處理中';
}

function ReturnItem({ r }: { r: ReturnView }) {
  return (
    <li className="flex flex-col gap-2 py-4 first:pt-0 last:pb-0">
      <p className="flex flex-wrap items-center gap-2">
        <span className="tabular font-medium">{r.returnNo}</span>
        <Badge tone={r.refund?.status === 'done' ? 'success' : TONES[r.status]}>{stage(r)}</Badge>
        <span className="tabular text-sm text-ink-muted">申請於 {formatDateTime(r.requestedAt)}</span>
      </p>
      <ul className="text-sm">
        {r.items.map((i) => (
          <li key={i.itemId}>
            {i.name} × {i.quantity}
          </li>
        ))}
      </ul>
      <p className="text-sm text-ink-muted">
        原因：{r.reason}
        {r.detail && `（${r.detail}）`}
      </p>
      {r.photos.length > 0 && (
        <ul className="flex gap-2" aria-label="退貨照片">
          {r.photos.map((src, n) => (
            <li key={src}>
              <a href={src} target="_blank" rel="noreferrer">
                <img
                  src={src}
                  alt={`退貨照片 ${n + 1}`}
                  width={64}
                  height={64}
                  loading="lazy"
                  className="size-16 rounded border border-line object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      {r.status === 'approved' && (
        <Alert tone="info" title="請將商品寄回">
          請連同原包裝寄回，並在包裹上註明退貨編號 <span className="tabular">{r.returnNo}</span>
          ；寄送地址已寄到您的信箱，運費由我們負擔。
        </Alert>
      )}
      {r.staffMessage && <p className="text-sm">客服留言：{r.staffMessage}</p>}
      {r.status !== 'refused' && (
        <div className="flex max-w-sm flex-col gap-1">
          <ReturnAmounts ret={r} />
          {r.bank && <p className="text-sm text-ink-muted">退款帳戶：{r.bank}</p>}
        </div>
      )}
    </li>
  );
}

/** The member gives the account a transfer refund goes to (a paid ATM order cancelled by the shop, say). */
function RefundAccountForm({ order }: { order: OrderDetail }) {
  const client = useQueryClient();
  const form = useForm<RefundAccount>({
    resolver: zodResolver(RefundAccount),
    mode: FORM_MODE,
    defaultValues: { bankCode: '', account: '', holder: '' },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => giveRefundAccount(order.orderNo, v),
    (updated) => {
      client.setQueryData(orderQueryOptions(order.orderNo).queryKey, updated);
      toast.success('已收到您的退款帳戶，轉帳完成後會寄信通知您。');
    },
  );
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-3 rounded-lg border border-amber/40 bg-amber-soft/40 p-4"
      aria-label="填寫退款帳戶"
    >
      <p className="font-medium">請提供退款帳戶</p>
      <p className="text-sm text-ink-muted">這筆訂單的退款會以轉帳退還，請填寫您本人的銀行帳戶。</p>
      <div className="grid gap-3 sm:grid-cols-3">
        <BankFields field={(n) => form.register(n)} errors={form.formState.errors} />
      </div>
      {formError && <Alert tone="error">{formError}</Alert>}
      <Button type="submit" className="w-fit" loading={form.formState.isSubmitting}>
        送出退款帳戶
      </Button>
    </form>
  );
}

/**
 * 退貨與退款 on the member's order page: the refunds, a transfer's missing account, the returns
 * with each step, and the way to ask for one while the order may be returned (?return=new opens
 * the form, so the back button closes it).
 */
export function ReturnsPanel({ order }: { order: OrderDetail }) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const asking = params.get('return') === 'new' && order.returnable !== null;
  const close = () =>
    setParams(
      (p) => {
        p.delete('return');
        return p;
      },
      { replace: true },
    );
  if (order.returns.length === 0 && order.refunds.length === 0 && !order.returnable) return null;
  return (
    <section
      className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-5"
      aria-label="退貨與退款"
    >
      <h2 className="font-semibold">退貨與退款</h2>
      {order.refunds.some((r) => r.needsAccount) && <RefundAccountForm order={order} />}
      {order.refunds.length > 0 && <RefundList refunds={order.refunds} />}
      {order.returns.length > 0 && (
        <ul className="divide-y divide-line border-t border-line pt-4" aria-label="退貨申請">
          {[...order.returns].reverse().map((r) => (
            <ReturnItem key={r.returnNo} r={r} />
          ))}
        </ul>
      )}
      {asking ? (
        <ReturnForm
          order={order}
          onCancel={close}
          onDone={(updated) => {
            client.setQueryData(orderQueryOptions(order.orderNo).queryKey, updated);
            close();
            toast.success('已送出退貨申請，客服審核後會寄信通知您。');
          }}
        />
      ) : (
        order.returnable && (
          <div className="flex flex-wrap items-center gap-3">
            <Button variant="secondary" onClick={() => setParams((p) => (p.set('return', 'new'), p))}>
              申請退貨
            </Button>
            <span className="text-sm text-ink-muted">
              可申請至 <span className="tabular">{formatDateTime(order.returnable.until)}</span>
            </span>
          </div>
        )
      )}
    </section>
  );
}
