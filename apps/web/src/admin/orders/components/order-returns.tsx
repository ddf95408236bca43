import { gatewayRefundTo } from '@shop/shared/payment-methods';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { z } from 'zod';
import type { AdminOrderDetail } from '@shop/shared/admin-orders';
import { formatTwd } from '@shop/shared/money';
import {
  RETURN_STATUS_LABELS,
  RefuseReturnBody,
  ReturnDecisionBody,
  type ReturnStatus,
  type ReturnView,
} from '@shop/shared/returns';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { apiPost } from '../../../lib/api-client.ts';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { adminApiUrl, adminKeys, seg } from '../../shared/api.ts';
import { Facts, Panel } from '../../shared/panel.tsx';
import { DialogButtons } from './order-actions.tsx';
import { ReturnAmounts } from '../../../features/orders/components/order-parts.tsx';
import { useCan } from '../../shared/use-admin-me.ts';
import { adminOrderKeys } from '../queries.ts';

/** Staff's decisions on a return; each answers the order as the console shows it. */
export const orderReturnsApi = {
  approve: (returnNo: string, message: string) =>
    apiPost<AdminOrderDetail>(adminApiUrl(`/returns/${seg(returnNo)}/approve`), { message }),
  refuse: (returnNo: string, message: string) =>
    apiPost<AdminOrderDetail>(adminApiUrl(`/returns/${seg(returnNo)}/refuse`), { message }),
  receive: (returnNo: string, items: ReadonlyArray<{ itemId: string; restock: boolean }>) =>
    apiPost<AdminOrderDetail>(adminApiUrl(`/returns/${seg(returnNo)}/receive`), { items }),
};

const TONES: Record<ReturnStatus, BadgeTone> = {
  requested: 'amber',
  approved: 'tea',
  refused: 'neutral',
  received: 'success',
};
type Refund = NonNullable<ReturnView['refund']>;

/** `to`: where a gateway refund goes back (信用卡, LINE Pay); null: by bank transfer. */
function refundLabel(refund: Refund, to: string | null): { text: string; className: string } {
  if (refund.status === 'done') return { text: to ? `已退回${to}` : '已匯款退回', className: 'text-success' };
  if (refund.status === 'failed')
    return {
      text: to ? `退回${to}未成功，請到「寄送狀態」查看原因` : '退款未完成',
      className: 'text-danger',
    };
  return {
    text: to ? `退回${to}處理中` : '等待轉帳，請到「退貨與退款」處理',
    className: 'text-ink-muted',
  };
}

type Action = 'approve' | 'refuse' | 'receive';
const TITLES: Record<Action, string> = { approve: '核准退貨', refuse: '不核准退貨', receive: '確認收到退貨' };
const DONE: Record<Action, string> = {
  approve: '已核准退貨，會員會收到寄回商品的說明信。',
  refuse: '已通知會員退貨申請未核准。',
  receive: '已確認收貨並辦理退款。',
};

/** Puts the fresh order in the cache (the order and returns lists refetch) and says so. */
function useApplied(orderNo: string, action: Action, onDone: () => void) {
  const client = useQueryClient();
  return async (updated: AdminOrderDetail) => {
    client.setQueryData(adminOrderKeys.detail(orderNo), updated);
    toast.success(DONE[action]);
    onDone();
    // The returns page is another domain; its keys live under 'admin' → 'returns' like every console key.
    await Promise.all([
      client.invalidateQueries({ queryKey: adminOrderKeys.all }),
      client.invalidateQueries({ queryKey: [...adminKeys.all, 'returns'] }),
    ]);
  };
}

function ApproveForm({
  orderNo,
  ret,
  to,
  onClose,
}: {
  orderNo: string;
  ret: ReturnView;
  /** Where the money goes back (信用卡, LINE Pay); null: by bank transfer. */
  to: string | null;
  onClose(): void;
}) {
  const form = useForm({
    mode: FORM_MODE,
    resolver: zodResolver(ReturnDecisionBody),
    defaultValues: { message: '' },
  });
  const applied = useApplied(orderNo, 'approve', onClose);
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => orderReturnsApi.approve(ret.returnNo, v.message ?? ''),
    (updated) => void applied(updated),
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm leading-relaxed">
        核准後，會員會收到寄回地址與注意事項的通知信。收到商品後，再到這裡確認收貨，系統才會退款{' '}
        <span className="tabular font-medium">{formatTwd(ret.amount)}</span>
        {to ? `（退回${to}）` : '（匯款到會員的帳戶）'}。
      </p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextAreaField
        label="給會員的留言"
        maxLength={500}
        hint="選填，會以「客服留言」附在通知信中，最多 500 個字"
        error={errors.message?.message}
        className="min-h-24"
        {...form.register('message')}
      />
      <DialogButtons onCancel={onClose} submitLabel="核准退貨" loading={isSubmitting} />
    </form>
  );
}

function RefuseForm({ orderNo, ret, onClose }: { orderNo: string; ret: ReturnView; onClose(): void }) {
  const form = useForm({
    mode: FORM_MODE,
    resolver: zodResolver(RefuseReturnBody),
    defaultValues: { message: '' },
  });
  const applied = useApplied(orderNo, 'refuse', onClose);
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => orderReturnsApi.refuse(ret.returnNo, v.message),
    (updated) => void applied(updated),
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm leading-relaxed">不核准後，這筆申請即結案，會員會收到附上原因的通知信。</p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextAreaField
        label="不核准的原因"
        required
        autoFocus
        maxLength={500}
        hint="會寄給會員，最多 500 個字"
        error={errors.message?.message}
        className="min-h-24"
        {...form.register('message')}
      />
      <DialogButtons onCancel={onClose} submitLabel="確定不核准" loading={isSubmitting} danger />
    </form>
  );
}

/**
 * No choice is made in advance: a returned tea that was opened or crushed must not go back on sale
 * by default, and a sealed one should not quietly vanish from stock either, so staff look at each
 * item in hand and say which it is (the server also wants every item named).
 */
const ReceiveFields = z.object({
  items: z.array(z.object({ restock: z.enum(['yes', 'no'], { error: '請選擇是否放回庫存' }) })),
});
type ReceiveFields = z.infer<typeof ReceiveFields>;

function ReceiveForm({ order, ret, onClose }: { order: AdminOrderDetail; ret: ReturnView; onClose(): void }) {
  const form = useForm<ReceiveFields>({
    mode: FORM_MODE,
    resolver: zodResolver(ReceiveFields),
    defaultValues: { items: ret.items.map(() => ({})) } as Partial<ReceiveFields>,
  });
  const applied = useApplied(order.orderNo, 'receive', onClose);
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) =>
      orderReturnsApi.receive(
        ret.returnNo,
        ret.items.map((item, i) => ({ itemId: item.itemId, restock: v.items[i]?.restock === 'yes' })),
      ),
    (updated) => void applied(updated),
  );
  const { errors, isSubmitting } = form.formState;
  const to = gatewayRefundTo(order.paymentMethod);
  // Everything of the order back (with the returns already received): the order becomes 已退款.
  const back = new Map<string, number>();
  for (const r of order.returns)
    if (r.status === 'received' || r.returnNo === ret.returnNo)
      for (const i of r.items) back.set(i.itemId, (back.get(i.itemId) ?? 0) + i.quantity);
  const whole = order.items.every((i) => (back.get(i.id) ?? 0) >= i.quantity);
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm leading-relaxed">請逐項確認商品狀況，選擇是否放回庫存。</p>
      {ret.items.map((item, i) => {
        const error = errors.items?.[i]?.restock?.message;
        const errorId = `${ret.returnNo}-${i}-error`;
        return (
          <fieldset
            key={item.itemId}
            className="flex flex-col gap-1 rounded-lg border border-line p-3"
            aria-describedby={error ? errorId : undefined}
          >
            <legend className="px-1 text-sm font-medium">
              {item.name} × <span className="tabular">{item.quantity}</span>
            </legend>
            <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
              <input
                type="radio"
                value="yes"
                className="size-4 accent-tea"
                aria-invalid={error ? true : undefined}
                {...form.register(`items.${i}.restock`)}
              />
              放回庫存
            </label>
            <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
              <input
                type="radio"
                value="no"
                className="size-4 accent-tea"
                aria-invalid={error ? true : undefined}
                {...form.register(`items.${i}.restock`)}
              />
              不放回（瑕疵、損壞）
            </label>
            {error && (
              <p id={errorId} role="alert" className="text-sm text-danger">
                {error}
              </p>
            )}
          </fieldset>
        );
      })}
      <div className="rounded-lg bg-paper px-4 py-3 text-sm leading-relaxed">
        <p>
          將退款 <span className="tabular font-semibold">{formatTwd(ret.amount)}</span>
          {to
            ? to === 'LINE Pay'
              ? '，經 LINE Pay 退回會員付款的帳戶。'
              : '，經綠界退回會員的信用卡。'
            : ret.bank
              ? `，匯款到 ${ret.bank}；確認後請到「退貨與退款」轉帳並標記完成。`
              : '；會員尚未提供退款帳戶，提供後會出現在「退貨與退款」的待轉帳清單。'}
        </p>
        <p className="text-ink-muted">
          {whole
            ? '這是訂單剩下的全部商品：訂單會改為「已退款」，已開立的發票會作廢。'
            : '已開立的發票會依退款金額開立折讓。'}
        </p>
      </div>
      {formError && <Alert tone="error">{formError}</Alert>}
      <DialogButtons onCancel={onClose} submitLabel="確認收貨並退款" loading={isSubmitting} />
    </form>
  );
}

/** The masked account as the server gives it (bank, last four digits, holder). */
function MaskedBank({ bank }: { bank: string }) {
  return <span className="tabular">{bank}</span>;
}

function ReturnEntry({
  order,
  ret,
  canWrite,
  onAction,
}: {
  order: AdminOrderDetail;
  ret: ReturnView;
  canWrite: boolean;
  onAction(action: Action): void;
}) {
  const to = gatewayRefundTo(order.paymentMethod);
  const refund = ret.refund ? refundLabel(ret.refund, to) : null;
  const money = ret.status !== 'refused';
  return (
    <li className="flex flex-col gap-3 border-t border-line pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="tabular font-medium">{ret.returnNo}</span>
        <Badge tone={TONES[ret.status]}>{RETURN_STATUS_LABELS[ret.status]}</Badge>
      </div>
      <Facts
        rows={[
          ['申請', <span className="tabular">{formatTaipeiDateTime(ret.requestedAt)}</span>],
          ['原因', ret.reason],
          !!ret.detail && ['說明', <span className="whitespace-pre-line">{ret.detail}</span>],
          !!ret.decidedAt && [
            ret.status === 'refused' ? '不核准' : '核准',
            <span className="tabular">{formatTaipeiDateTime(ret.decidedAt)}</span>,
          ],
          !!ret.staffMessage && ['店家留言', <span className="whitespace-pre-line">{ret.staffMessage}</span>],
          !!ret.receivedAt && [
            '收貨',
            <span className="tabular">{formatTaipeiDateTime(ret.receivedAt)}</span>,
          ],
          money && ['退款方式', to ? `退回${to}` : '匯款'],
          money &&
            !to && [
              '退款帳戶',
              ret.bank ? (
                <MaskedBank bank={ret.bank} />
              ) : (
                <span className="text-ink-muted">會員尚未提供</span>
              ),
            ],
          money && !!refund && ['退款狀態', <span className={refund.className}>{refund.text}</span>],
        ]}
      />
      {ret.photos.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="會員附上的照片">
          {ret.photos.map((url, i) => (
            <li key={url}>
              <a
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                className="block rounded-md border border-line hover:border-tea focus-visible:outline-3 focus-visible:outline-tea-dark"
              >
                <img
                  src={url}
                  alt={`退貨照片 ${i + 1}（另開新視窗看原圖）`}
                  width={72}
                  height={72}
                  loading="lazy"
                  className="size-18 rounded-md object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      <ul
        className="flex flex-col gap-1 rounded-lg bg-paper px-3 py-2 text-sm"
        aria-label={`${ret.returnNo} 退回的商品`}
      >
        {ret.items.map((item) => (
          <li key={item.itemId} className="flex justify-between gap-3">
            <span className="min-w-0">
              {item.name} × <span className="tabular">{item.quantity}</span>
              {item.restock !== null && (
                <span className="block text-xs text-ink-muted">
                  {item.restock ? '已放回庫存' : '未放回庫存'}
                </span>
              )}
            </span>
            <span className="tabular shrink-0 whitespace-nowrap">{formatTwd(item.price)}</span>
          </li>
        ))}
        <li className="border-t border-line pt-1">
          <ReturnAmounts ret={ret} total={ret.status === 'refused' ? '申請金額' : '退款金額'} />
        </li>
      </ul>
      {canWrite && ret.status === 'requested' && (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => onAction('approve')}>核准</Button>
          <Button variant="secondary" onClick={() => onAction('refuse')}>
            不核准
          </Button>
        </div>
      )}
      {canWrite && ret.status === 'approved' && (
        <div>
          <Button onClick={() => onAction('receive')}>確認收到退貨</Button>
        </div>
      )}
    </li>
  );
}

/**
 * 「退貨申請」 on the console's order page: each return the member asked for, with its photos,
 * items and refund, and (for roles that change orders) approve, refuse and "the goods arrived".
 */
export function OrderReturns({ order }: { order: AdminOrderDetail }) {
  const canWrite = useCan('orders.write');
  const [open, setOpen] = useState<{ action: Action; returnNo: string } | null>(null);
  const close = () => setOpen(null);
  const ref = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  // The returns list links here with #returns: the card sits low on a phone, so go to it.
  useEffect(() => {
    if (hash === '#returns') ref.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  if (order.returns.length === 0) return null;
  const ret = open ? order.returns.find((r) => r.returnNo === open.returnNo) : undefined;
  return (
    <div id="returns" ref={ref} className="scroll-mt-4">
      <Panel title="退貨申請">
        <ul className="flex flex-col gap-4">
          {order.returns.map((r) => (
            <ReturnEntry
              key={r.returnNo}
              order={order}
              ret={r}
              canWrite={canWrite}
              onAction={(action) => setOpen({ action, returnNo: r.returnNo })}
            />
          ))}
        </ul>
        <Dialog
          open={open !== null && ret !== undefined}
          onClose={close}
          title={open ? `${TITLES[open.action]}：${open.returnNo}` : ''}
        >
          {open && ret && open.action === 'approve' && (
            <ApproveForm
              orderNo={order.orderNo}
              ret={ret}
              to={gatewayRefundTo(order.paymentMethod)}
              onClose={close}
            />
          )}
          {open && ret && open.action === 'refuse' && (
            <RefuseForm orderNo={order.orderNo} ret={ret} onClose={close} />
          )}
          {open && ret && open.action === 'receive' && (
            <ReceiveForm order={order} ret={ret} onClose={close} />
          )}
        </Dialog>
      </Panel>
    </div>
  );
}
