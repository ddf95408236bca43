import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { ChangePasswordBody, FIELD_LABELS } from '@shop/shared/auth';
import { PASSWORD_MIN } from '@shop/shared/password-policy';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { PasswordField } from './password-field.tsx';
import { useResetPasswordStore } from '../stores/reset-password-store.ts';

/** /member/resetPassword: reachable only while resetPasswordAuth is true (the guard sees to it). */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(ChangePasswordBody),
    mode: 'onChange',
    defaultValues: { password: '', passwordConfirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const leave = () => useResetPasswordStore.getState().setResetPasswordAuth(false);
  const { formError, onSubmit } = useApiSubmit(
    form,
    async (values) => {
      try {
        return await authApi.changePassword(values);
      } catch (error) {
        // The 5-minute window closed: start over from the member area.
        if (error instanceof ApiError && error.code === 'requires-recent-login') {
          leave();
          toast.error('確認密碼已超過 5 分鐘，請重新輸入目前的密碼。');
          void navigate(paths.member(), { replace: true });
        }
        throw error;
      }
    },
    () => {
      leave();
      toast.success('密碼已更新，其他裝置上的登入已一併登出。');
      void navigate(paths.member(), { replace: true });
    },
  );
  // Re-check the confirmation whenever the password changes, so a fixed mismatch clears at once.
  // (Registered where it is rendered: the first error focused on submit follows registration order.)
  const recheckConfirm = {
    onChange: () => form.getValues('passwordConfirm') && void form.trigger('passwordConfirm'),
  };
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="修改密碼" lead="請設定新的密碼。完成後，其他裝置上的登入會一併登出。" />
      <Card className="max-w-lg">
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
          {formError && <Alert tone="error">{formError}</Alert>}
          <PasswordField
            label={FIELD_LABELS.newPassword}
            autoComplete="new-password"
            required
            hint={`至少 ${PASSWORD_MIN} 個字元，不能與目前的密碼相同。`}
            error={errors.password?.message}
            {...form.register('password', recheckConfirm)}
          />
          <PasswordField
            label={FIELD_LABELS.passwordConfirm}
            autoComplete="new-password"
            required
            error={errors.passwordConfirm?.message}
            {...form.register('passwordConfirm')}
          />
          <div className="flex flex-wrap items-center gap-4">
            <Button type="submit" loading={isSubmitting}>
              {isSubmitting ? '儲存中…' : '儲存新密碼'}
            </Button>
            <Link to={paths.member()} onClick={leave} className={textLinkClass}>
              取消
            </Link>
          </div>
        </form>
      </Card>
    </div>
  );
}
