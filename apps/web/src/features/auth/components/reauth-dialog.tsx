import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FIELD_LABELS, ReauthenticateBody } from '@shop/shared/auth';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { useResetPasswordStore } from '../stores/reset-password-store.ts';
import { PasswordField } from './password-field.tsx';

/**
 * Step one of the member password change: confirm the current password. Success sets the
 * reset-password store's `resetPasswordAuth` (it gates /member/resetPassword, docs/product-rules.md#routes-and-guards) and opens a 5-minute server window.
 */
export function ReauthDialog({ open, onClose, onConfirmed }: { open: boolean; onClose(): void; onConfirmed(): void }) {
  const form = useForm<ReauthenticateBody>({ resolver: zodResolver(ReauthenticateBody), mode: 'onChange', defaultValues: { password: '' } });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, authApi.reauthenticate, () => {
    useResetPasswordStore.getState().setResetPasswordAuth(true);
    form.reset();
    onConfirmed();
  });
  return (
    <Dialog open={open} onClose={onClose} title="修改密碼">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <p className="text-sm text-ink-muted">為了保護您的帳號，請先輸入目前的密碼。確認後請在 5 分鐘內設定新密碼。</p>
        {formError && <Alert tone="error">{formError}</Alert>}
        <PasswordField label={FIELD_LABELS.currentPassword} autoComplete="current-password" required autoFocus error={errors.password?.message} {...form.register('password')} />
        <div className="flex justify-end gap-3">
          <Button variant="ghost" onClick={onClose}>
            取消
          </Button>
          <Button type="submit" loading={isSubmitting}>
            確認
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
