import { useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateStaffBody, ROLE_NAMES, STAFF_ROLES, type CreateStaffResponse, type StaffRole } from '@shop/shared/admin';
import type { z } from 'zod';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { apiPost } from '../../lib/api-client.ts';
import { useApiSubmit } from '../../lib/form.ts';
import { formatDateTime } from './member-parts.tsx';

type Invite = z.infer<typeof CreateStaffResponse>;

export const ROLE_HINTS: Readonly<Record<StaffRole, string>> = {
  owner: '全部功能，包括優惠券、會員等級、網站設定、管理員帳號與操作紀錄。',
  staff: '處理訂單、會員、網站內容與客服來信；其餘只能查看。',
  viewer: '只能查看，不能修改任何資料。',
};

/** The one-time link, shown once: a read-only field, a copy button and when it stops working. */
function InviteLink({ invite, onDismiss }: { invite: Invite; onDismiss(): void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invite.setPasswordUrl);
      setCopied(true);
      toast.success('已複製連結。');
    } catch {
      // No clipboard permission (or an old browser): select the text so Ctrl+C / ⌘C copies it.
      inputRef.current?.select();
      toast.info('請按 Ctrl+C（Mac 為 ⌘C）複製已選取的連結。');
    }
  };
  return (
    <Alert tone="success" title={`${invite.created ? '已建立' : '已更新'} ${invite.email}（${ROLE_NAMES[invite.role]}）`}>
      <div className="flex flex-col gap-2">
        <p>請把下面的連結交給對方，用來設定密碼。連結只能使用一次，離開這個頁面後不會再顯示。</p>
        <label htmlFor={id} className="sr-only">
          設定密碼連結
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={inputRef}
            id={id}
            readOnly
            value={invite.setPasswordUrl}
            onFocus={(e) => e.currentTarget.select()}
            className="min-h-11 w-full min-w-0 rounded-md border border-line bg-surface px-3 font-mono text-xs text-ink"
          />
          <Button variant="secondary" onClick={() => void copy()}>
            {copied ? '已複製' : '複製連結'}
          </Button>
        </div>
        <p>
          有效期限：<span className="tabular font-medium">{formatDateTime(invite.expiresAt)}</span>（臺北時間）。過期後請重新邀請一次。
        </p>
        <div>
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            完成，關閉這個連結
          </Button>
        </div>
      </div>
    </Alert>
  );
}

/** Invite by e-mail and role: the account gets a one-time set-password link (no mail is sent). */
export function StaffInvite({ staffKey }: { staffKey: readonly unknown[] }) {
  const client = useQueryClient();
  const [invite, setInvite] = useState<Invite | null>(null);
  const form = useForm<z.input<typeof CreateStaffBody>>({ resolver: zodResolver(CreateStaffBody) as never, mode: 'onTouched', defaultValues: { email: '', role: 'staff' } });
  const { errors, isSubmitting } = form.formState;
  const role = useWatch({ control: form.control, name: 'role' }) as StaffRole;
  const { formError, onSubmit } = useApiSubmit(
    form,
    (values) => apiPost<Invite>('/api/admin/staff', { email: values.email.trim(), role: values.role }),
    (result) => {
      setInvite(result);
      form.reset({ email: '', role: 'staff' });
      void client.invalidateQueries({ queryKey: staffKey });
    },
  );
  return (
    <div className="flex flex-col gap-4">
      {invite && <InviteLink invite={invite} onDismiss={() => setInvite(null)} />}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <TextField label="電子郵件" type="email" inputMode="email" autoComplete="off" required error={errors.email?.message} {...form.register('email', { setValueAs: (v: string) => v.trim() })} />
          <SelectField label="角色" required error={errors.role?.message} {...form.register('role')}>
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </SelectField>
        </div>
        <p className="text-sm text-ink-muted">{ROLE_HINTS[role] ?? ''}已經是會員的電子郵件會沿用原本的帳號並改為這個角色。</p>
        <div className="flex justify-end">
          <Button type="submit" loading={isSubmitting}>
            產生設定密碼連結
          </Button>
        </div>
      </form>
    </div>
  );
}
