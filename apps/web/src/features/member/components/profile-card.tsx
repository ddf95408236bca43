import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ChangeEmailBody, UpdateProfileBody, type Profile } from '@shop/shared/membership';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { EmailText } from '../../../components/email-text.tsx';
import { useApiSubmit } from '../../../lib/form.ts';
import { profileQueryOptions, requestEmailChange, updateProfile } from '../api/member-api.ts';

function ProfileForm({ profile, onDone }: { profile: Profile; onDone(p: Profile): void }) {
  const form = useForm<UpdateProfileBody>({
    resolver: zodResolver(UpdateProfileBody),
    mode: 'onChange',
    defaultValues: {
      displayName: profile.displayName,
      phone: profile.phone ?? '',
      birthday: profile.birthday ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, updateProfile, (p) => onDone(p));
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField
        label="會員名稱"
        required
        error={errors.displayName?.message}
        {...form.register('displayName')}
      />
      <TextField
        label="手機號碼"
        type="tel"
        inputMode="tel"
        placeholder="0912345678"
        hint="選填，結帳時會自動帶入。"
        error={errors.phone?.message}
        {...form.register('phone')}
      />
      <TextField
        label="生日"
        type="date"
        disabled={Boolean(profile.birthday)}
        hint={
          profile.birthday
            ? '生日設定後無法自行修改，如需更正請與客服聯絡。'
            : '選填；生日當月會收到一張生日禮券。設定後無法自行修改。'
        }
        error={errors.birthday?.message}
        {...form.register('birthday')}
      />
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting}>
          儲存
        </Button>
      </div>
    </form>
  );
}

function EmailForm({ onDone }: { onDone(email: string): void }) {
  const form = useForm<ChangeEmailBody>({
    resolver: zodResolver(ChangeEmailBody),
    mode: 'onChange',
    defaultValues: { newEmail: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, requestEmailChange, ({ pendingEmail }) =>
    onDone(pendingEmail),
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-ink-muted">我們會寄一封確認信到新的信箱，點選信中的連結後才會改用新信箱。</p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField
        label="新的電子郵件"
        type="email"
        inputMode="email"
        required
        error={errors.newEmail?.message}
        {...form.register('newEmail')}
      />
      <TextField
        label="目前的密碼"
        type="password"
        required
        autoComplete="current-password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting}>
          寄送確認信
        </Button>
      </div>
    </form>
  );
}

/** The member's own data with edit dialogs; e-mail changes go through a confirmation link. */
export function ProfileCard() {
  const client = useQueryClient();
  const profile = useQuery(profileQueryOptions());
  const [editing, setEditing] = useState<'profile' | 'email' | null>(null);
  if (!profile.data) return <SkeletonText lines={4} />;
  const p = profile.data;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-ink-muted">會員名稱</dt>
        <dd>{p.displayName}</dd>
        <dt className="text-ink-muted">電子郵件</dt>
        <dd className="min-w-0">
          <EmailText email={p.email} />
          {p.pendingEmail && (
            <span className="block text-xs text-[#8a5a2a]">
              等待確認改為 <EmailText email={p.pendingEmail} />
            </span>
          )}
        </dd>
        <dt className="text-ink-muted">手機號碼</dt>
        <dd>{p.phone ?? '未填寫'}</dd>
        <dt className="text-ink-muted">生日</dt>
        <dd>{p.birthday ? p.birthday.replaceAll('-', '/') : '未填寫'}</dd>
      </dl>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" size="sm" onClick={() => setEditing('profile')}>
          編輯資料
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setEditing('email')}>
          變更電子郵件
        </Button>
      </div>
      <Dialog open={editing === 'profile'} onClose={() => setEditing(null)} title="編輯會員資料">
        {editing === 'profile' && (
          <ProfileForm
            profile={p}
            onDone={(next) => {
              client.setQueryData(profileQueryOptions().queryKey, next);
              void client.invalidateQueries({ queryKey: ['membership'] });
              toast.success('會員資料已更新。');
              setEditing(null);
            }}
          />
        )}
      </Dialog>
      <Dialog open={editing === 'email'} onClose={() => setEditing(null)} title="變更電子郵件">
        {editing === 'email' && (
          <EmailForm
            onDone={(email) => {
              void client.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
              toast.success(`確認信已寄到 ${email}，請點選信中的連結完成變更。`);
              setEditing(null);
            }}
          />
        )}
      </Dialog>
    </div>
  );
}
