import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FIELD_LABELS, LoginBody } from '@shop/shared/auth';
import { AuthErrorCode } from '@shop/shared/auth-errors';
import { REDIRECT_PARAM } from '@shop/shared/routes';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordField } from './password-field.tsx';
import { SocialSignInButtons } from './social-sign-in-buttons.tsx';
import { SocialProblemNotice } from './social-problem-notice.tsx';
import { rememberSignedIn, signInReturnPath } from '../session.ts';

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = params.get(REDIRECT_PARAM);
  const form = useForm<LoginBody>({
    resolver: zodResolver(LoginBody),
    mode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, formErrorCode, onSubmit } = useApiSubmit(form, authApi.login, ({ user }) => {
    rememberSignedIn(user);
    void navigate(signInReturnPath(returnTo), { replace: true });
  });
  const registerHref = returnTo
    ? `${paths.register()}?${REDIRECT_PARAM}=${encodeURIComponent(returnTo)}`
    : paths.register();

  return (
    <AuthCard
      title="會員登入"
      lead={
        returnTo
          ? '請先登入會員，登入後會帶您回到剛才的頁面。'
          : '登入後即可進入線上商城、查詢訂單與會員優惠。'
      }
      footer={
        <>
          還不是會員？{' '}
          <Link to={registerHref} className={textLinkClass}>
            免費註冊
          </Link>
        </>
      }
    >
      <SocialProblemNotice />
      <SocialSignInButtons returnTo={returnTo} dividerLabel="或使用電子郵件登入" />
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        {formError && (
          <Alert
            tone="error"
            // Locked: a completed password reset lifts the lock at once (and marks this browser as the owner's).
            action={
              formErrorCode === AuthErrorCode.tooManyRequests ? (
                <Link to={paths.forgetPassword()} className={textLinkClass}>
                  重設密碼
                </Link>
              ) : undefined
            }
          >
            {formError}
          </Alert>
        )}
        <TextField
          label={FIELD_LABELS.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...form.register('email')}
        />
        <div className="flex flex-col gap-2">
          <PasswordField
            label={FIELD_LABELS.password}
            autoComplete="current-password"
            required
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Link to={paths.forgetPassword()} className={`${textLinkClass} self-end text-sm`}>
            忘記密碼？
          </Link>
        </div>
        <Button type="submit" size="lg" loading={isSubmitting}>
          {isSubmitting ? '登入中…' : '登入'}
        </Button>
      </form>
    </AuthCard>
  );
}
