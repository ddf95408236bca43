import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { RecipientCorrectionBody, type AdminOrderDetail } from '@shop/shared/admin-orders';
import { LOGISTICS_NAME_MESSAGES, isLogisticsName } from '@shop/shared/checkout';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { ordersApi } from '../api.ts';
import { adminOrderKeys } from '../queries.ts';
import { DialogButtons } from './order-actions.tsx';

/** Orders whose recipient staff may still correct: not on their way (the server also refuses once a parcel carries the name). */
const CORRECTABLE = new Set(['pending_payment', 'payment_failed', 'paid', 'processing', 'returned']);

/**
 * 修正收件人: the name and mobile on an order that has not shipped, for when the carriers refuse a
 * name (ECPay: 2–5 Chinese characters or 4–10 Latin letters) or the buyer asks. Checked as typed by
 * the same rule the server applies; the change is audited.
 */
export function RecipientCorrection({ order }: { order: AdminOrderDetail }) {
  const [open, setOpen] = useState(false);
  if (!CORRECTABLE.has(order.status)) return null;
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        修正收件人
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="修正收件人">
        {open && <RecipientForm order={order} onClose={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function RecipientForm({ order, onClose }: { order: AdminOrderDetail; onClose(): void }) {
  const client = useQueryClient();
  const method = order.shipping.method === 'home' ? 'home' : 'cvs';
  const schema = RecipientCorrectionBody.refine((v) => isLogisticsName(v.recipientName), {
    path: ['recipientName'],
    message: LOGISTICS_NAME_MESSAGES[method],
  });
  const form = useForm<RecipientCorrectionBody>({
    mode: FORM_MODE,
    resolver: zodResolver(schema),
    defaultValues: { recipientName: order.shipping.recipientName, phone: order.shipping.phone },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => ordersApi.correctRecipient(order.orderNo, v),
    (fresh) => {
      client.setQueryData(adminOrderKeys.detail(order.orderNo), fresh);
      void client.invalidateQueries({ queryKey: adminOrderKeys.all });
      toast.success('收件人已更新。');
      onClose();
    },
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-ink-muted">
        物流業者只收 2–5 個中文字或 4–10 個英文字母的姓名，不可含空白、稱謂或符號。修改會留下操作紀錄。
      </p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField
        label={method === 'home' ? '收件人姓名' : '取件人姓名'}
        required
        autoFocus
        maxLength={30}
        error={errors.recipientName?.message}
        {...form.register('recipientName')}
      />
      <TextField
        label="手機號碼"
        required
        type="tel"
        inputMode="tel"
        error={errors.phone?.message}
        {...form.register('phone')}
      />
      <DialogButtons onCancel={onClose} submitLabel="儲存" loading={isSubmitting} />
    </form>
  );
}
