import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { FIELD_LABELS, ReauthenticateBody } from '@shop/shared/auth';
import { AuthErrorCode } from '@shop/shared/auth-errors';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { forgetSignedIn } from '../session.ts';
import { useResetPasswordStore } from '../stores/reset-password-store.ts';
import { PasswordField } from './password-field.tsx';

/**
 * Step one of the member password change: confirm the current password. Success sets the
 * reset-password store's `resetPasswordAuth` (it gates /member/resetPassword, docs/product-rules.md#routes-and-guards) and opens a 5-minute server window.
 * Locked after too many wrong passwords, it offers the way out the message names: sign out and
 * reset the password by mail (the reset pages are for signed-out visitors), which lifts the lock.
 */
export function ReauthDialog({
  open,
  onClose,
  onConfirmed,
  title = '修改密碼',
  lead = '為了保護您的帳號，請先輸入目前的密碼。確認後請在 5 分鐘內設定新密碼。',
}: {
  open: boolean;
  onClose(): void;
  onConfirmed(): void;
  /** What the confirmation is for: the password change by default. */
  title?: string;
  lead?: string;
}) {
  const navigate = useNavigate();
  const form = useForm<ReauthenticateBody>({
    resolver: zodResolver(ReauthenticateBody),
    mode: 'onChange',
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, formErrorCode, setFormError, onSubmit } = useApiSubmit(
    form,
    authApi.reauthenticate,
    () => {
      useResetPasswordStore.getState().setResetPasswordAuth(true);
      form.reset();
      onConfirmed();
    },
  );
  const [leaving, setLeaving] = useState(false);
  const signOutAndReset = async () => {
    setLeaving(true);
    try {
      await authApi.logout();
      // Leave the member pages first, so nothing on them asks the API again as a signed-out visitor.
      await navigate(paths.forgetPassword(), { replace: true });
      forgetSignedIn();
    } catch (error) {
      setFormError(errorMessage(error));
      setLeaving(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <p className="text-sm text-ink-muted">{lead}</p>
        {formError && (
          <Alert
            tone="error"
            action={
              formErrorCode === AuthErrorCode.tooManyRequests ? (
                <Button
                  size="sm"
                  variant="secondary"
                  loading={leaving}
                  onClick={() => void signOutAndReset()}
                >
                  登出並重設密碼
                </Button>
              ) : undefined
            }
          >
            {formError}
          </Alert>
        )}
        <PasswordField
          label={FIELD_LABELS.currentPassword}
          autoComplete="current-password"
          required
          autoFocus
          error={errors.password?.message}
          {...form.register('password')}
        />
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
