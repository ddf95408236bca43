import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CARD_HOLD_MINUTES, ReminderSettings } from '@shop/shared/admin-settings';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox, TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { settingsApi } from '../api.ts';
import { reminderSettingsQuery, settingsKeys } from '../queries.ts';

function RemindersForm({ saved, canWrite }: { saved: ReminderSettings; canWrite: boolean }) {
  const client = useQueryClient();
  const form = useForm<ReminderSettings>({
    mode: FORM_MODE,
    resolver: zodResolver(ReminderSettings),
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => settingsApi.saveReminders(v),
    (result) => {
      client.setQueryData(settingsKeys.reminders(), result);
      form.reset(result);
      toast.success('提醒信設定已儲存，下一次檢查時套用。');
    },
  );
  const { errors, isSubmitting, isDirty } = form.formState;
  const number = { type: 'number', inputMode: 'numeric', step: 1, readOnly: !canWrite } as const;
  return (
    <form
      noValidate
      aria-labelledby="reminder-settings-title"
      onSubmit={(e) => void onSubmit(e)}
      className="flex flex-col gap-5"
    >
      {!canWrite && <Alert tone="info">您的角色只能檢視提醒信設定；如需修改，請洽店主。</Alert>}
      <fieldset className="flex flex-col gap-2">
        <Checkbox
          label="信用卡付款提醒：保留時間快結束時，提醒還沒付款的會員回來付款"
          disabled={!canWrite}
          {...form.register('cardPayment')}
        />
        <TextField
          label="在保留時間結束前幾分鐘寄出"
          {...number}
          min={5}
          max={20}
          containerClassName="max-w-xs sm:ml-8"
          className="tabular read-only:bg-paper"
          hint={`5–20 分鐘；信用卡訂單保留 ${CARD_HOLD_MINUTES} 分鐘`}
          error={errors.cardLeadMinutes?.message}
          {...form.register('cardLeadMinutes', { valueAsNumber: true })}
        />
      </fieldset>
      <Checkbox
        label="ATM 轉帳提醒：轉帳期限前 24 小時，寄出虛擬帳號、金額與期限"
        disabled={!canWrite}
        {...form.register('atmTransfer')}
      />
      <fieldset className="flex flex-col gap-2">
        <Checkbox
          label="購物車提醒：購物車放著沒結帳時寄一封提醒（只寄給同意收到優惠通知的會員）"
          disabled={!canWrite}
          {...form.register('abandonedCart')}
        />
        <TextField
          label="購物車最後一次變動後幾小時寄出"
          {...number}
          min={1}
          max={168}
          containerClassName="max-w-xs sm:ml-8"
          className="tabular read-only:bg-paper"
          hint="1–168 小時；同一個購物車只提醒一次，內容變動後才會再提醒"
          error={errors.abandonedCartHours?.message}
          {...form.register('abandonedCartHours', { valueAsNumber: true })}
        />
      </fieldset>
      {formError && <Alert tone="error">{formError}</Alert>}
      {canWrite && (
        <div>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            {isSubmitting ? '儲存中…' : '儲存提醒信設定'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** The reminder mails to members: card and ATM payments, abandoned carts (the owner switches them; others read). */
export function RemindersCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(reminderSettingsQuery());
  return (
    <Card>
      <h2 id="reminder-settings-title" className="mb-1 text-lg font-semibold">
        提醒信
      </h2>
      <p className="mb-4 text-sm text-ink-muted">
        寄給會員的提醒。每筆訂單、每個購物車最多提醒一次；已付款或已取消的訂單不會收到。
      </p>
      {query.data ? (
        <RemindersForm saved={query.data} canWrite={canWrite} />
      ) : query.isError ? (
        <LoadError title="提醒信設定暫時無法載入" query={query} />
      ) : (
        <Skeleton className="h-40 w-full" />
      )}
    </Card>
  );
}
