import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ROLE_NAMES } from '@shop/shared/admin';
import { ChangePasswordBody, FIELD_LABELS } from '@shop/shared/auth';
import { PASSWORD_MIN } from '@shop/shared/password-policy';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordField } from './password-field.tsx';
import { forgetSignedIn } from '../session.ts';
import { useResetPasswordStore } from '../stores/reset-password-store.ts';
import { ActionCodeProblem, actionCodeProblemTitle } from './action-code-problem.tsx';

/** Sets a new password from the mailed link (/resetPassword?code=…). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const code = params.get('code') ?? '';
  const check = useQuery({
    queryKey: ['auth', 'reset-code', code],
    queryFn: () => authApi.checkResetCode(code),
    enabled: code.length > 0,
    staleTime: Infinity,
    retry: false,
  });
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(ChangePasswordBody),
    mode: 'onChange',
    defaultValues: { password: '', passwordConfirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(
    form,
    (values) => authApi.resetPassword({ code, ...values }),
    () => {
      // The code is spent: this tab must not remember it as valid.
      client.removeQueries({ queryKey: ['auth', 'reset-code', code] });
      useResetPasswordStore.getState().clearCurrentMail();
      // Every session of the account has ended, this browser's too.
      forgetSignedIn();
      void navigate(paths.resetPasswordSuccess(), { replace: true });
    },
  );
  // Re-check the confirmation whenever the password changes, so a fixed mismatch clears at once.
  // (Registered where it is rendered: the first error focused on submit follows registration order.)
  const recheckConfirm = {
    onChange: () => form.getValues('passwordConfirm') && void form.trigger('passwordConfirm'),
  };
  const footer = (
    <Link to={paths.login()} className={textLinkClass}>
      ← 回到登入
    </Link>
  );

  if (!code) {
    return (
      <AuthCard title="連結不完整" footer={footer}>
        <ActionCodeProblem
          error={new ApiError(400, 'invalid-action-code', '')}
          retryHref={paths.forgetPassword()}
          retryLabel="重新申請重設密碼"
        />
      </AuthCard>
    );
  }
  if (check.isPending) {
    return (
      <AuthCard title="重設密碼" footer={footer}>
        <div role="status" aria-label="正在確認連結">
          <SkeletonText lines={3} />
        </div>
      </AuthCard>
    );
  }
  if (check.isError) {
    return (
      <AuthCard title={actionCodeProblemTitle(check.error)} footer={footer}>
        <ActionCodeProblem
          error={check.error}
          retryHref={paths.forgetPassword()}
          retryLabel="重新申請重設密碼"
        />
      </AuthCard>
    );
  }
  // The same link accepts a console invite: the page says so, and what accepting does.
  const invite = check.data.invite;
  return (
    <AuthCard
      title={invite ? '接受管理後台邀請' : '設定新密碼'}
      lead={
        invite ? (
          <>
            您受邀以「{ROLE_NAMES[invite.role]}」的身分使用管理後台。為{' '}
            <strong className="break-all text-tea-dark">{check.data.email}</strong>{' '}
            設定密碼後即可登入；這個帳號在其他裝置上的登入會全部登出。
          </>
        ) : (
          <>
            為 <strong className="break-all text-tea-dark">{check.data.email}</strong> 設定新的密碼。
          </>
        )
      }
      footer={footer}
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        {formError && (
          <Alert
            tone="error"
            action={
              <Link to={paths.forgetPassword()} className={textLinkClass}>
                重新申請
              </Link>
            }
          >
            {formError}
          </Alert>
        )}
        <PasswordField
          label={FIELD_LABELS.newPassword}
          autoComplete="new-password"
          required
          hint={`至少 ${PASSWORD_MIN} 個字元，不能與電子郵件相同。`}
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
        <Button type="submit" size="lg" loading={isSubmitting}>
          {isSubmitting ? '儲存中…' : invite ? '接受邀請並設定密碼' : '儲存新密碼'}
        </Button>
      </form>
    </AuthCard>
  );
}
