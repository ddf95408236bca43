import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateStaffBody, ROLE_NAMES, STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { staffApi, type StaffInviteSent } from '../api.ts';
import { staffKeys } from '../queries.ts';

type Invite = StaffInviteSent;

export const ROLE_HINTS: Readonly<Record<StaffRole, string>> = {
  owner: '全部功能，包括優惠券、會員等級、網站設定、管理員帳號與操作紀錄。',
  staff: '處理訂單、會員、網站內容與客服來信；其餘只能查看。',
  viewer: '只能查看，不能修改任何資料。',
};

/** What happened: the invite went to the mailbox; nothing is granted until it is accepted. */
function InviteSent({ invite, onDismiss }: { invite: Invite; onDismiss(): void }) {
  return (
    <Alert tone="success" title={`已寄出邀請給 ${invite.email}（${ROLE_NAMES[invite.role]}）`}>
      <div className="flex flex-col gap-2">
        <p>
          對方按信中的連結設定密碼後，才會取得管理權限。連結只能使用一次，有效期限：
          <span className="tabular font-medium">{formatTaipeiDateTime(invite.expiresAt)}</span>
          （臺北時間）；過期後請重新邀請一次。
        </p>
        <div>
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            知道了
          </Button>
        </div>
      </div>
    </Alert>
  );
}

/** Invite by e-mail and role: the address gets a mailed one-time link; the role comes when it is accepted. */
export function StaffInvite() {
  const client = useQueryClient();
  const [invite, setInvite] = useState<Invite | null>(null);
  const form = useForm<z.input<typeof CreateStaffBody>>({
    resolver: zodResolver(CreateStaffBody) as never,
    mode: FORM_MODE,
    defaultValues: { email: '', role: 'staff' },
  });
  const { errors, isSubmitting } = form.formState;
  const role = useWatch({ control: form.control, name: 'role' }) as StaffRole;
  const { formError, onSubmit } = useApiSubmit(
    form,
    (values) => staffApi.invite({ email: values.email.trim(), role: values.role }),
    (result) => {
      setInvite(result);
      form.reset({ email: '', role: 'staff' });
      void client.invalidateQueries({ queryKey: staffKeys.all });
    },
  );
  return (
    <div className="flex flex-col gap-4">
      {invite && <InviteSent invite={invite} onDismiss={() => setInvite(null)} />}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <TextField
            label="電子郵件"
            type="email"
            inputMode="email"
            autoComplete="off"
            required
            error={errors.email?.message}
            {...form.register('email', { setValueAs: (v: string) => v.trim() })}
          />
          <SelectField label="角色" required error={errors.role?.message} {...form.register('role')}>
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </SelectField>
        </div>
        <p className="text-sm text-ink-muted">
          {ROLE_HINTS[role] ?? ''}
          已經是會員的電子郵件會沿用原本的帳號，對方接受邀請（重新設定密碼）後才會改為這個角色。
        </p>
        <div className="flex justify-end">
          <Button type="submit" loading={isSubmitting}>
            寄送邀請信
          </Button>
        </div>
      </form>
    </div>
  );
}
