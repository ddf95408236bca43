import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import {
  CARRIERS,
  CARRIER_FOR_CVS_BRAND,
  ORDER_ACTION_LABELS,
  ReasonFields,
  ShipOrderFields,
  ShipmentEventFields,
  type AdminOrderDetail,
  type OrderAction,
  type OrderActionBody,
} from '@shop/shared/admin-orders';
import { SHIPMENT_EVENT_LABELS } from '@shop/shared/order-status';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClass, type ButtonVariant } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { FORM_MODE, errorMessage, useApiSubmit } from '../../../lib/form.ts';
import { adminOrderKeys } from '../queries.ts';
import { ordersApi } from '../api.ts';
import { moneyWords } from '../money-words.ts';

const DONE: Record<OrderAction, string> = {
  process: '訂單已開始備貨。',
  ship: '訂單已出貨，會員會收到出貨通知信。',
  'ship-ecpay': '已建立綠界物流單並出貨，會員會收到出貨通知信。',
  'shipment-event': '已新增配送事件。',
  deliver: '訂單已標記為已送達。',
  complete: '訂單已完成。',
  cancel: '訂單已取消。',
  refund: '已辦理退款，會員會收到通知信。',
};

const VARIANTS: Record<OrderAction, ButtonVariant> = {
  process: 'primary',
  ship: 'primary',
  'ship-ecpay': 'primary',
  'shipment-event': 'secondary',
  deliver: 'primary',
  complete: 'primary',
  cancel: 'secondary',
  refund: 'secondary',
};
const DESTRUCTIVE = new Set<OrderAction>(['cancel', 'refund']);
/** Cancel and refund: outlined in red, apart from the forward moves. */
const DESTRUCTIVE_CLASS =
  'inline-flex min-h-11 items-center justify-center rounded-md border border-danger/40 bg-surface px-5 font-medium tracking-wide whitespace-nowrap text-danger transition-colors hover:border-danger hover:bg-danger-soft';

const CONFIRM: Partial<Record<OrderAction, string>> = {
  process: '開始備貨後，會員會在訂單進度看到「備貨中」。',
  deliver: '確認包裹已送達或已由會員取貨？會員會在訂單進度看到「已送達」。',
  complete: '完成後訂單即結案，之後只能辦理退款。',
};

/** Runs an action and puts the fresh order in the cache (the lists refetch), with a toast. */
function useRunAction(order: AdminOrderDetail, onDone: () => void) {
  const client = useQueryClient();
  return async (body: OrderActionBody) => {
    const updated = await ordersApi.action(order.orderNo, body);
    client.setQueryData(adminOrderKeys.detail(order.orderNo), updated);
    await client.invalidateQueries({ queryKey: adminOrderKeys.all });
    toast.success(DONE[body.action]);
    onDone();
    return updated;
  };
}

/** 返回 and the dialog's submit button, for the order page's action dialogs (returns too). */
export function DialogButtons({
  onCancel,
  submitLabel,
  loading,
  danger,
}: {
  onCancel(): void;
  submitLabel: string;
  loading: boolean;
  danger?: boolean;
}) {
  return (
    <div className="flex flex-wrap justify-end gap-3 pt-1">
      <Button variant="ghost" onClick={onCancel}>
        返回
      </Button>
      <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={loading}>
        {submitLabel}
      </Button>
    </div>
  );
}

function ShipForm({ order, onClose }: { order: AdminOrderDetail; onClose(): void }) {
  const fallback =
    order.shipping.method === 'cvs' ? CARRIER_FOR_CVS_BRAND[order.shipping.cvsBrand ?? ''] : undefined;
  const form = useForm<ShipOrderFields>({
    mode: FORM_MODE,
    resolver: zodResolver(ShipOrderFields),
    defaultValues: { carrier: fallback ?? '黑貓宅急便', trackingNo: '' },
  });
  const run = useRunAction(order, onClose);
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => run({ action: 'ship', ...v }),
    () => form.reset(),
  );
  const { errors, isSubmitting } = form.formState;
  const [ecpay, setEcpay] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const viaEcpay = async () => {
    setEcpay({ busy: true, error: null });
    try {
      await run({ action: 'ship-ecpay' });
    } catch (error) {
      setEcpay({ busy: false, error: errorMessage(error) });
    }
  };
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-ink-muted">
        出貨後，會員會收到含追蹤編號的出貨通知信，並可在會員中心追蹤配送進度。
      </p>
      {/* ECPay's home delivery collects no cash: a cash-on-delivery home order goes with a carrier that does. */}
      {order.allowedActions.includes('ship-ecpay') &&
        !(order.shipping.method === 'home' && order.paymentMethod === 'cod') && (
          <div className="flex flex-col gap-2 rounded-md border border-line p-4">
            <p className="text-sm">
              {order.shipping.method === 'cvs' ? '在綠界建立超商取貨物流單' : '在綠界建立黑貓宅配物流單'}
              {order.paymentMethod === 'cod' && order.shipping.method === 'cvs' ? '（含取貨付款代收）' : ''}
              ，追蹤編號自動帶入，貨態會自動更新。
            </p>
            {ecpay.error && <Alert tone="error">{ecpay.error}</Alert>}
            <Button type="button" className="self-start" loading={ecpay.busy} onClick={() => void viaEcpay()}>
              建立物流單並出貨
            </Button>
            <p className="pt-1 text-sm text-ink-muted">或自行寄送，填寫物流業者與追蹤編號：</p>
          </div>
        )}
      {order.allowedActions.includes('ship-ecpay') &&
        order.shipping.method === 'home' &&
        order.paymentMethod === 'cod' && (
          <p className="rounded-md bg-paper p-3 text-sm" data-testid="no-ecpay-reason">
            這筆是宅配貨到付款：綠界的宅配不代收貨款，所以不能在綠界建立物流單。請交給可代收貨款的物流業者寄送，再填寫物流業者與追蹤編號。
          </p>
        )}
      {formError && <Alert tone="error">{formError}</Alert>}
      <SelectField label="物流業者" required error={errors.carrier?.message} {...form.register('carrier')}>
        {CARRIERS.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
      <TextField
        label="追蹤編號"
        required
        autoFocus
        autoComplete="off"
        spellCheck={false}
        hint="6–30 個英文字母、數字或連字號"
        error={errors.trackingNo?.message}
        {...form.register('trackingNo')}
      />
      <DialogButtons onCancel={onClose} submitLabel="確認出貨" loading={isSubmitting} />
    </form>
  );
}

function ShipmentEventForm({ order, onClose }: { order: AdminOrderDetail; onClose(): void }) {
  const form = useForm<ShipmentEventFields>({
    mode: FORM_MODE,
    resolver: zodResolver(ShipmentEventFields),
    defaultValues: { event: order.shipmentEvents[0] ?? 'in_transit', location: '' },
  });
  const run = useRunAction(order, onClose);
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => run({ action: 'shipment-event', event: v.event, ...(v.location ? { location: v.location } : {}) }),
    () => form.reset(),
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-ink-muted">配送事件會即時顯示在會員的配送追蹤頁。</p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <SelectField label="配送事件" required error={errors.event?.message} {...form.register('event')}>
        {order.shipmentEvents.map((e) => (
          <option key={e} value={e}>
            {SHIPMENT_EVENT_LABELS[e]}
          </option>
        ))}
      </SelectField>
      <TextField
        label="地點"
        hint="選填，例如「台中轉運中心」"
        maxLength={60}
        error={errors.location?.message}
        {...form.register('location')}
      />
      <DialogButtons onCancel={onClose} submitLabel="新增事件" loading={isSubmitting} />
    </form>
  );
}

function ReasonForm({
  order,
  action,
  onClose,
}: {
  order: AdminOrderDetail;
  action: 'cancel' | 'refund';
  onClose(): void;
}) {
  const label = action === 'cancel' ? '取消原因' : '退款原因';
  const schema = ReasonFields(label);
  const form = useForm<{ reason: string }>({
    mode: FORM_MODE,
    resolver: zodResolver(schema),
    defaultValues: { reason: '' },
  });
  const run = useRunAction(order, onClose);
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => run({ action, reason: v.reason }),
    () => form.reset(),
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <div className="flex flex-col gap-1 text-sm text-ink-muted">
        {moneyWords(order, action).map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextAreaField
        label={label}
        required
        autoFocus
        maxLength={200}
        hint="會顯示在會員的訂單紀錄中，最多 200 個字"
        error={errors.reason?.message}
        className="min-h-24"
        {...form.register('reason')}
      />
      <DialogButtons
        onCancel={onClose}
        submitLabel={action === 'cancel' ? '確認取消訂單' : '確認退款'}
        loading={isSubmitting}
        danger
      />
    </form>
  );
}

function ConfirmForm({
  order,
  action,
  onClose,
}: {
  order: AdminOrderDetail;
  action: 'process' | 'deliver' | 'complete';
  onClose(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useRunAction(order, onClose);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await run({ action });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void confirm();
      }}
      className="flex flex-col gap-4"
    >
      <p className="text-sm">{CONFIRM[action]}</p>
      {error && <Alert tone="error">{error}</Alert>}
      <DialogButtons onCancel={onClose} submitLabel={ORDER_ACTION_LABELS[action]} loading={busy} />
    </form>
  );
}

/**
 * The moves the server allows for this order now (`allowedActions`), as buttons; each opens a
 * dialog that asks what it needs (carrier and tracking number, an event, a reason) or a confirmation.
 */
export function OrderActions({ order }: { order: AdminOrderDetail }) {
  const [open, setOpen] = useState<OrderAction | null>(null);
  const close = () => setOpen(null);
  if (order.allowedActions.length === 0)
    return <p className="text-sm text-ink-muted">這筆訂單已結案，沒有可執行的操作。</p>;
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {order.allowedActions
          .filter((a) => a !== 'ship-ecpay')
          .map((a) => (
            <button
              key={a}
              type="button"
              className={DESTRUCTIVE.has(a) ? DESTRUCTIVE_CLASS : buttonClass(VARIANTS[a])}
              onClick={() => setOpen(a)}
            >
              {ORDER_ACTION_LABELS[a]}
            </button>
          ))}
      </div>
      <Dialog
        open={open !== null}
        onClose={close}
        title={open ? `${ORDER_ACTION_LABELS[open]}：${order.orderNo}` : ''}
      >
        {open === 'ship' && <ShipForm order={order} onClose={close} />}
        {open === 'shipment-event' && <ShipmentEventForm order={order} onClose={close} />}
        {(open === 'cancel' || open === 'refund') && (
          <ReasonForm key={open} order={order} action={open} onClose={close} />
        )}
        {(open === 'process' || open === 'deliver' || open === 'complete') && (
          <ConfirmForm key={open} order={order} action={open} onClose={close} />
        )}
      </Dialog>
    </>
  );
}
