import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatTwd } from '@shop/shared/money';
import {
  ECPAY_STORE_LIMITS,
  INSTALLMENT_TERMS,
  StorePaymentSettings,
  minutesInWords,
} from '@shop/shared/store-payments';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox, TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { settingsApi } from '../api.ts';
import { settingsKeys, storePaymentSettingsQuery } from '../queries.ts';

const range = (l: { minAmount: number; maxAmount: number }) =>
  `綠界的範圍 ${formatTwd(l.minAmount)}–${formatTwd(l.maxAmount)}`;

function StorePaymentsForm({ saved, canWrite }: { saved: StorePaymentSettings; canWrite: boolean }) {
  const client = useQueryClient();
  const form = useForm<StorePaymentSettings>({
    mode: FORM_MODE,
    resolver: zodResolver(StorePaymentSettings),
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => settingsApi.saveStorePayments(v),
    (result) => {
      client.setQueryData(settingsKeys.storePayments(), result);
      form.reset(result);
      toast.success('付款方式設定已儲存，下一筆結帳起套用。');
    },
  );
  const { errors, isSubmitting, isDirty } = form.formState;
  const number = { type: 'number', inputMode: 'numeric', step: 1, readOnly: !canWrite } as const;
  const field = 'tabular read-only:bg-paper';
  const cvsMinutes = form.watch('cvsCode.expireMinutes');
  const terms = form.watch('installments.terms');
  const toggleTerm = (n: number, on: boolean) =>
    form.setValue(
      'installments.terms',
      on ? [...terms.filter((t) => t !== n), n].sort((a, b) => a - b) : terms.filter((t) => t !== n),
      { shouldDirty: true, shouldValidate: true },
    );
  return (
    <form
      noValidate
      aria-labelledby="store-payment-settings-title"
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-6"
    >
      {!canWrite && <Alert tone="info">您的角色只能檢視付款方式設定；如需修改，請洽店主。</Alert>}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">超商代碼繳費（CVS）</legend>
        <Checkbox
          label="提供超商代碼繳費（7-ELEVEN ibon、全家 FamiPort、萊爾富 Life-ET、OK 超商 OK‧go）"
          disabled={!canWrite}
          {...form.register('cvsCode.enabled')}
        />
        <div className="grid gap-3 sm:ml-8 sm:grid-cols-3">
          <TextField
            label="最低訂單金額"
            {...number}
            className={field}
            hint={range(ECPAY_STORE_LIMITS.cvsCode)}
            error={errors.cvsCode?.minAmount?.message}
            {...form.register('cvsCode.minAmount', { valueAsNumber: true })}
          />
          <TextField
            label="最高訂單金額"
            {...number}
            className={field}
            hint="個人會員綠界只收到 NT$6,000"
            error={errors.cvsCode?.maxAmount?.message}
            {...form.register('cvsCode.maxAmount', { valueAsNumber: true })}
          />
          <TextField
            label="繳費期限（分鐘）"
            {...number}
            className={field}
            hint={`取號後 ${Number.isInteger(cvsMinutes) && cvsMinutes > 0 ? minutesInWords(cvsMinutes) : '—'}；最多 43,200 分鐘（30 天）`}
            error={errors.cvsCode?.expireMinutes?.message}
            {...form.register('cvsCode.expireMinutes', { valueAsNumber: true })}
          />
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">超商條碼繳費（BARCODE）</legend>
        <Checkbox
          label="提供超商條碼繳費（四大超商櫃檯掃描條碼）"
          disabled={!canWrite}
          {...form.register('cvsBarcode.enabled')}
        />
        <div className="grid gap-3 sm:ml-8 sm:grid-cols-3">
          <TextField
            label="最低訂單金額"
            {...number}
            className={field}
            hint={range(ECPAY_STORE_LIMITS.cvsBarcode)}
            error={errors.cvsBarcode?.minAmount?.message}
            {...form.register('cvsBarcode.minAmount', { valueAsNumber: true })}
          />
          <TextField
            label="最高訂單金額"
            {...number}
            className={field}
            error={errors.cvsBarcode?.maxAmount?.message}
            {...form.register('cvsBarcode.maxAmount', { valueAsNumber: true })}
          />
          <TextField
            label="繳費期限（天）"
            {...number}
            className={field}
            hint="1–30 天"
            error={errors.cvsBarcode?.expireDays?.message}
            {...form.register('cvsBarcode.expireDays', { valueAsNumber: true })}
          />
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">信用卡分期</legend>
        <p className="text-sm text-ink-muted">
          勾選要提供的期數（需已向綠界申請開通）。分期訂單依綠界規定只能整筆退刷，不能部分退款。
        </p>
        <div className="flex flex-wrap gap-x-6">
          {INSTALLMENT_TERMS.map((n) => (
            <Checkbox
              key={n}
              label={`${n} 期`}
              disabled={!canWrite}
              checked={terms.includes(n)}
              onChange={(e) => toggleTerm(n, e.currentTarget.checked)}
            />
          ))}
        </div>
        {errors.installments?.terms && (
          <p role="alert" className="text-sm text-danger">
            {errors.installments.terms.message ?? '分期期數不正確'}
          </p>
        )}
        <TextField
          label="訂單金額滿多少可分期"
          {...number}
          containerClassName="max-w-xs"
          className={field}
          error={errors.installments?.minAmount?.message}
          {...form.register('installments.minAmount', { valueAsNumber: true })}
        />
      </fieldset>
      {formError && <Alert tone="error">{formError}</Alert>}
      {canWrite && (
        <div>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {isSubmitting ? '儲存中…' : '儲存付款方式設定'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** 超商代碼, 超商條碼 and card instalments: where each is offered and until when (the owner changes them; others read). */
export function StorePaymentsCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(storePaymentSettingsQuery());
  return (
    <Card>
      <h2 id="store-payment-settings-title" className="mb-1 text-lg font-semibold">
        超商繳費與分期
      </h2>
      <p className="mb-4 text-sm text-ink-muted">
        結帳時只在訂單金額落在範圍內才顯示這些付款方式；伺服器也會拒絕範圍外的訂單。繳費期限到了還沒付款，訂單會自動取消並放回庫存。
      </p>
      {query.data ? (
        <StorePaymentsForm saved={query.data} canWrite={canWrite} />
      ) : query.isError ? (
        <LoadError title="付款方式設定暫時無法載入" query={query} />
      ) : (
        <Skeleton className="h-40 w-full" />
      )}
    </Card>
  );
}
