import { useMemo, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  UpdateShippingBody,
  type ShippingSettingsView,
  type UpdateShippingInput,
} from '@shop/shared/admin-settings';
import {
  SHIPPING_METHOD_LABELS,
  SHIPPING_METHODS,
  editablePart,
  type ShippingMethod,
} from '@shop/shared/shipping';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { FORM_MODE, errorMessage } from '../../../lib/form.ts';
import { markFormSaved } from '../../../lib/unsaved-input.ts';
import { shippingRulesQueryOptions } from '../../../features/checkout/api/shipping-rules.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { settingsApi } from '../api.ts';
import { settingsKeys, shippingSettingsQuery } from '../queries.ts';

const FIELDS: readonly Path<UpdateShippingInput>[] = [
  'home.fee',
  'home.freeOver',
  'home.leadTime',
  'cvs.fee',
  'cvs.freeOver',
  'cvs.leadTime',
  'outlyingSurcharge',
  'codFee',
];

/** NT$ before an amount input, as part of its label (the input itself holds a plain number). */
const money = (label: string) => `${label}（NT$）`;
/** Every amount here is a whole number of NT$ typed as digits. */
const AMOUNT_INPUT = {
  type: 'number',
  inputMode: 'numeric',
  step: 1,
  required: true,
  className: 'tabular read-only:bg-paper',
} as const;

function MethodFields({
  method,
  form,
  readOnly,
}: {
  method: ShippingMethod;
  form: ReturnType<typeof useShippingForm>;
  readOnly: boolean;
}) {
  const errors = form.formState.errors[method];
  return (
    <fieldset className="flex flex-col gap-4 rounded-lg border border-line p-4">
      <legend className="px-1 font-medium">{SHIPPING_METHOD_LABELS[method]}</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={money('運費')}
          {...AMOUNT_INPUT}
          min={0}
          readOnly={readOnly}
          error={errors?.fee?.message}
          {...form.register(`${method}.fee`, { valueAsNumber: true })}
        />
        <TextField
          label={money('免運門檻')}
          {...AMOUNT_INPUT}
          min={1}
          readOnly={readOnly}
          hint="折扣後的商品金額達到這個數字即免運"
          error={errors?.freeOver?.message}
          {...form.register(`${method}.freeOver`, { valueAsNumber: true })}
        />
      </div>
      <TextField
        label="出貨與到貨時間"
        required
        maxLength={60}
        readOnly={readOnly}
        className="read-only:bg-paper"
        hint="顯示在運費說明頁，最多 60 個字"
        error={errors?.leadTime?.message}
        {...form.register(`${method}.leadTime`)}
      />
    </fieldset>
  );
}

function useShippingForm(view: ShippingSettingsView | undefined) {
  const values = useMemo(() => (view ? editablePart(view.rules) : undefined), [view]);
  return useForm<UpdateShippingInput, unknown, UpdateShippingBody>({
    mode: FORM_MODE,
    resolver: zodResolver(UpdateShippingBody),
    ...(values ? { values } : {}),
    // A refetch while the owner is typing keeps what they typed.
    resetOptions: { keepDirtyValues: true },
  });
}

/** The shipping fee rules: amounts, thresholds and lead times checkout and the shop's pages use. */
export function ShippingRulesCard({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const query = useQuery(shippingSettingsQuery());
  const form = useShippingForm(query.data);
  const [formError, setFormError] = useState<string | null>(null);
  const readOnly = !canWrite;

  const onSubmit = form.handleSubmit(async (values, event) => {
    setFormError(null);
    try {
      const saved = await settingsApi.saveShipping(values);
      markFormSaved(event?.target);
      client.setQueryData(settingsKeys.shipping(), saved);
      await client.invalidateQueries({ queryKey: shippingRulesQueryOptions().queryKey });
      toast.success('運費規則已儲存，結帳與運費說明頁立即套用新的金額。');
    } catch (error) {
      const fields =
        error instanceof ApiError
          ? Object.entries(error.fields ?? {}).filter(([name]) =>
              FIELDS.includes(name as Path<UpdateShippingInput>),
            )
          : [];
      fields.forEach(([name, message], i) =>
        form.setError(
          name as Path<UpdateShippingInput>,
          { type: 'server', message },
          { shouldFocus: i === 0 },
        ),
      );
      if (fields.length === 0) setFormError(errorMessage(error));
    }
  });

  const errors = form.formState.errors;
  return (
    <Card className="flex flex-col gap-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="shipping-rules-title" className="text-lg font-semibold">
            運費規則
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            結帳依這裡的金額計算運費，
            <a href="/shippingFee" target="_blank" rel="noopener" className={textLinkClass}>
              運費說明頁
              <span className="sr-only">（另開新分頁）</span>
            </a>
            與網站內容中的金額也會同步更新。
          </p>
        </div>
        {query.data && (
          <p className="text-sm text-ink-muted">
            {query.data.updatedAt
              ? `上次儲存：${formatTaipeiDateTime(query.data.updatedAt)}`
              : '目前使用預設值'}
          </p>
        )}
      </header>

      {query.isError && !query.data ? (
        <LoadError title="運費規則暫時無法載入" query={query} />
      ) : !query.data ? (
        <div role="status" aria-label="載入運費規則" className="flex flex-col gap-4">
          <Skeleton className="h-44 w-full" />
          <Skeleton className="h-44 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : (
        <form
          noValidate
          aria-labelledby="shipping-rules-title"
          onSubmit={(e) => void onSubmit(e)}
          className="flex flex-col gap-5"
        >
          {readOnly && <Alert tone="info">您的角色只能檢視運費規則；如需修改，請洽店主。</Alert>}
          {SHIPPING_METHODS.map((method) => (
            <MethodFields key={method} method={method} form={form} readOnly={readOnly} />
          ))}
          <fieldset className="flex flex-col gap-4 rounded-lg border border-line p-4">
            <legend className="px-1 font-medium">加收費用</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label={money('離島加收運費')}
                {...AMOUNT_INPUT}
                min={0}
                readOnly={readOnly}
                hint="寄到澎湖、金門、馬祖等離島（宅配或離島門市取貨），每筆加收，不適用免運"
                error={errors.outlyingSurcharge?.message}
                {...form.register('outlyingSurcharge', { valueAsNumber: true })}
              />
              <TextField
                label={money('貨到付款手續費')}
                {...AMOUNT_INPUT}
                min={0}
                readOnly={readOnly}
                hint="宅配貨到付款與超商取貨付款，每筆加收"
                error={errors.codFee?.message}
                {...form.register('codFee', { valueAsNumber: true })}
              />
            </div>
          </fieldset>
          {formError && <Alert tone="error">{formError}</Alert>}
          {canWrite && (
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" loading={form.formState.isSubmitting}>
                {form.formState.isSubmitting ? '儲存中…' : '儲存運費規則'}
              </Button>
              {form.formState.isDirty && (
                <Button variant="ghost" onClick={() => form.reset(editablePart(query.data.rules))}>
                  還原
                </Button>
              )}
            </div>
          )}
        </form>
      )}
    </Card>
  );
}
