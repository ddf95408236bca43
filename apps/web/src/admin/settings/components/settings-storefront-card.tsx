import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { StorefrontSettings } from '@shop/shared/storefront';
import {
  DELIVERY_MARKS,
  PAYMENT_MARKS,
  STOREFRONT_MARK_LABELS,
  type StorefrontMark,
} from '@shop/shared/storefront-marks';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox, TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { storefrontQueryOptions } from '../../../lib/storefront-query.ts';
import { settingsApi } from '../api.ts';
import { settingsKeys, storefrontSettingsQuery } from '../queries.ts';

function MarkGroup({
  legend,
  marks,
  disabled,
  register,
}: {
  legend: string;
  marks: readonly StorefrontMark[];
  disabled: boolean;
  register: ReturnType<typeof useForm<StorefrontSettings>>['register'];
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-ink">{legend}</legend>
      <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-3">
        {marks.map((mark) => (
          <Checkbox
            key={mark}
            label={STOREFRONT_MARK_LABELS[mark]}
            value={mark}
            disabled={disabled}
            {...register('marks')}
          />
        ))}
      </div>
    </fieldset>
  );
}

function StorefrontForm({ saved, canWrite }: { saved: StorefrontSettings; canWrite: boolean }) {
  const client = useQueryClient();
  const form = useForm<StorefrontSettings>({
    mode: FORM_MODE,
    resolver: zodResolver(StorefrontSettings),
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => settingsApi.saveStorefront(v),
    (result) => {
      client.setQueryData(settingsKeys.storefront(), result);
      void client.invalidateQueries({ queryKey: storefrontQueryOptions().queryKey });
      form.reset(result);
      toast.success('頁尾資訊已儲存，所有頁面立即顯示新的內容。');
    },
  );
  const { errors, isSubmitting, isDirty } = form.formState;
  const readOnly = !canWrite;
  const field = 'read-only:bg-paper';
  return (
    <form
      noValidate
      aria-labelledby="storefront-settings-title"
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4"
    >
      {readOnly && <Alert tone="info">您的角色只能檢視頁尾資訊；如需修改，請洽店主。</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="公司名稱"
          required
          readOnly={readOnly}
          className={field}
          error={errors.companyName?.message}
          {...form.register('companyName')}
        />
        <TextField
          label="統一編號"
          required
          inputMode="numeric"
          maxLength={8}
          readOnly={readOnly}
          className={`tabular ${field}`}
          hint="8 位數字，會依財政部的檢查碼規則核對"
          error={errors.taxId?.message}
          {...form.register('taxId')}
        />
        <TextField
          label="公司地址"
          required
          readOnly={readOnly}
          className={field}
          containerClassName="sm:col-span-2"
          error={errors.address?.message}
          {...form.register('address')}
        />
        <TextField
          label="客服電話"
          required
          type="tel"
          readOnly={readOnly}
          className={`tabular ${field}`}
          error={errors.phone?.message}
          {...form.register('phone')}
        />
        <TextField
          label="LINE 官方帳號連結"
          type="url"
          readOnly={readOnly}
          className={field}
          hint="例如 https://lin.ee/abcdEFG；留白則不顯示"
          error={errors.lineUrl?.message}
          {...form.register('lineUrl')}
        />
        <TextField
          label="Facebook 粉絲專頁連結"
          type="url"
          readOnly={readOnly}
          className={field}
          containerClassName="sm:col-span-2"
          hint="例如 https://www.facebook.com/shanlantea；留白則不顯示"
          error={errors.facebookUrl?.message}
          {...form.register('facebookUrl')}
        />
      </div>
      <MarkGroup legend="顯示的付款方式" marks={PAYMENT_MARKS} disabled={readOnly} register={form.register} />
      <MarkGroup
        legend="顯示的配送方式"
        marks={DELIVERY_MARKS}
        disabled={readOnly}
        register={form.register}
      />
      {errors.marks?.message && (
        <p className="text-sm text-danger" role="alert">
          {errors.marks.message}
        </p>
      )}
      {formError && <Alert tone="error">{formError}</Alert>}
      {canWrite && (
        <div>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {isSubmitting ? '儲存中…' : '儲存頁尾資訊'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** The footer's facts: company, 統一編號, contact, LINE and Facebook, payment and delivery marks. */
export function StorefrontCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(storefrontSettingsQuery());
  return (
    <Card>
      <h2 id="storefront-settings-title" className="mb-1 text-lg font-semibold">
        頁尾與公司資訊
      </h2>
      <p className="mb-4 text-sm text-ink-muted">
        顯示在每一頁的頁尾：公司名稱、統一編號、地址與電話，社群連結，以及接受的付款與配送方式。
      </p>
      {query.data ? (
        <StorefrontForm saved={query.data} canWrite={canWrite} />
      ) : query.isError ? (
        <LoadError title="頁尾資訊暫時無法載入" query={query} />
      ) : (
        <Skeleton className="h-64 w-full" />
      )}
    </Card>
  );
}
