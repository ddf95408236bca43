import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ReturnSettings } from '@shop/shared/admin-settings';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { settingsApi } from '../api.ts';
import { returnSettingsQuery, settingsKeys } from '../queries.ts';

function ReturnsForm({ saved, canWrite }: { saved: ReturnSettings; canWrite: boolean }) {
  const client = useQueryClient();
  const form = useForm<ReturnSettings>({
    mode: FORM_MODE,
    resolver: zodResolver(ReturnSettings),
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => settingsApi.saveReturns(v),
    (result) => {
      client.setQueryData(settingsKeys.returns(), result);
      form.reset(result);
      toast.success(`退貨期限已改為到貨後 ${result.days} 天，新的申請立即套用。`);
    },
  );
  const { errors, isSubmitting, isDirty } = form.formState;
  return (
    <form
      noValidate
      aria-labelledby="return-settings-title"
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4"
    >
      {!canWrite && <Alert tone="info">您的角色只能檢視退貨期限；如需修改，請洽店主。</Alert>}
      <TextField
        label="到貨後可申請退貨的天數"
        type="number"
        inputMode="numeric"
        step={1}
        min={7}
        max={60}
        required
        readOnly={!canWrite}
        containerClassName="max-w-xs"
        className="tabular read-only:bg-paper"
        hint="7–60 天；法定七天鑑賞期不可縮短"
        error={errors.days?.message}
        {...form.register('days', { valueAsNumber: true })}
      />
      {formError && <Alert tone="error">{formError}</Alert>}
      {canWrite && (
        <div>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {isSubmitting ? '儲存中…' : '儲存退貨期限'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** How many days after delivery members may ask to return an order (the owner sets it; others read it). */
export function ReturnsCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(returnSettingsQuery());
  return (
    <Card>
      <h2 id="return-settings-title" className="mb-1 text-lg font-semibold">
        退貨期限
      </h2>
      <p className="mb-4 text-sm text-ink-muted">
        會員在商品送達後幾天內，可以從會員中心申請退貨。變更只影響之後的申請，已送出的申請照常處理。
      </p>
      {query.data ? (
        <ReturnsForm saved={query.data} canWrite={canWrite} />
      ) : query.isError ? (
        <LoadError title="退貨期限暫時無法載入" query={query} />
      ) : (
        <Skeleton className="h-20 w-full" />
      )}
    </Card>
  );
}
