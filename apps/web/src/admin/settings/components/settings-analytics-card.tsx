import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AnalyticsSettings } from '@shop/shared/storefront';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { storefrontQueryOptions } from '../../../lib/storefront-query.ts';
import { settingsApi } from '../api.ts';
import { analyticsSettingsQuery, settingsKeys } from '../queries.ts';

function AnalyticsForm({ saved, canWrite }: { saved: AnalyticsSettings; canWrite: boolean }) {
  const client = useQueryClient();
  const form = useForm<AnalyticsSettings>({
    mode: FORM_MODE,
    resolver: zodResolver(AnalyticsSettings),
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => settingsApi.saveAnalytics(v),
    (result) => {
      client.setQueryData(settingsKeys.analytics(), result);
      void client.invalidateQueries({ queryKey: storefrontQueryOptions().queryKey });
      form.reset(result);
      toast.success('追蹤碼已儲存；訪客同意對應的 Cookie 類別後才會載入。');
    },
  );
  const { errors, isSubmitting, isDirty } = form.formState;
  const readOnly = !canWrite;
  return (
    <form
      noValidate
      aria-labelledby="analytics-settings-title"
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-4"
    >
      {readOnly && <Alert tone="info">您的角色只能檢視追蹤碼；如需修改，請洽店主。</Alert>}
      <TextField
        label="GA4 評估 ID"
        readOnly={readOnly}
        className="font-mono read-only:bg-paper"
        containerClassName="max-w-md"
        hint="Google Analytics「資料串流」中的評估 ID，例如 G-AB12CD34EF；需要訪客同意「分析」"
        autoComplete="off"
        spellCheck={false}
        error={errors.ga4MeasurementId?.message}
        {...form.register('ga4MeasurementId')}
      />
      <TextField
        label="Meta Pixel ID"
        inputMode="numeric"
        readOnly={readOnly}
        className="font-mono read-only:bg-paper"
        containerClassName="max-w-md"
        hint="事件管理工具中的像素編號（純數字）；需要訪客同意「行銷」"
        autoComplete="off"
        error={errors.metaPixelId?.message}
        {...form.register('metaPixelId')}
      />
      <TextField
        label="LINE Tag ID"
        readOnly={readOnly}
        className="font-mono read-only:bg-paper"
        containerClassName="max-w-md"
        hint="LINE Tag 基本程式碼中的 tagId，例如 1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d；需要訪客同意「行銷」"
        autoComplete="off"
        spellCheck={false}
        error={errors.lineTagId?.message}
        {...form.register('lineTagId')}
      />
      {formError && <Alert tone="error">{formError}</Alert>}
      {canWrite && (
        <div>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {isSubmitting ? '儲存中…' : '儲存追蹤碼'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** The measurement IDs: each provider loads only after the visitor consents to its category. */
export function AnalyticsCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(analyticsSettingsQuery());
  return (
    <Card>
      <h2 id="analytics-settings-title" className="mb-1 text-lg font-semibold">
        數據分析與廣告追蹤
      </h2>
      <p className="mb-4 text-sm text-ink-muted">
        填入後，網站會顯示 Cookie 同意橫幅；訪客同意前不會載入任何第三方程式或送出資料。留白即不使用該服務。
      </p>
      {query.data ? (
        <AnalyticsForm saved={query.data} canWrite={canWrite} />
      ) : query.isError ? (
        <LoadError title="追蹤碼暫時無法載入" query={query} />
      ) : (
        <Skeleton className="h-48 w-full" />
      )}
    </Card>
  );
}
