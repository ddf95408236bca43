import { lazy, Suspense } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FIELD_LABELS, RegisterBody } from '@shop/shared/auth';
import { PASSWORD_MIN } from '@shop/shared/password-policy';
import { REDIRECT_PARAM } from '@shop/shared/routes';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, TextField } from '../../../components/ui/field.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordField } from './password-field.tsx';
import { rememberSignedIn, signInReturnPath } from '../session.ts';

// Loaded after the page, as on the sign-in page (the first load of `/` must not grow).
const SocialSignInButtons = lazy(() =>
  import('./social-sign-in-buttons.tsx').then((m) => ({ default: m.SocialSignInButtons })),
);

export function RegisterPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = params.get(REDIRECT_PARAM);
  const form = useForm<RegisterBody>({
    resolver: zodResolver(RegisterBody),
    mode: 'onChange',
    defaultValues: {
      displayName: '',
      email: '',
      password: '',
      passwordConfirm: '',
      acceptTerms: false,
      marketingMail: false,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, authApi.register, ({ user }) => {
    rememberSignedIn(user);
    toast.success(`註冊完成！驗證信已寄到 ${user.email}。`);
    void navigate(returnTo ? signInReturnPath(returnTo) : paths.member(), { replace: true });
  });
  // Re-check the confirmation whenever the password changes, so a fixed mismatch clears at once.
  // (Registered where it is rendered: the first error focused on submit follows registration order.)
  const recheckConfirm = {
    onChange: () => form.getValues('passwordConfirm') && void form.trigger('passwordConfirm'),
  };

  return (
    <AuthCard
      title="註冊會員"
      lead="加入山嵐茶事會員，選購茶品、追蹤訂單，並累積會員等級。"
      footer={
        <>
          已經是會員了？{' '}
          <Link to={returnTo ? paths.login(returnTo) : paths.login()} className={textLinkClass}>
            前往登入
          </Link>
        </>
      }
    >
      <Suspense fallback={<div className="min-h-[216px]" />}>
        <SocialSignInButtons returnTo={returnTo} dividerLabel="或使用電子郵件註冊" />
      </Suspense>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        {formError && <Alert tone="error">{formError}</Alert>}
        <TextField
          label={FIELD_LABELS.displayName}
          autoComplete="nickname"
          required
          hint="我們會用這個名稱稱呼您，最多 30 個字。"
          error={errors.displayName?.message}
          {...form.register('displayName')}
        />
        <TextField
          label={FIELD_LABELS.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordField
          label={FIELD_LABELS.password}
          autoComplete="new-password"
          required
          hint={`至少 ${PASSWORD_MIN} 個字元，中文、英文、數字或符號都可以；建議用一句好記的話。`}
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
        <Checkbox
          label={
            <>
              我已閱讀並同意{' '}
              <Link to={paths.serviceTerms()} target="_blank" className={textLinkClass}>
                服務條款
              </Link>{' '}
              與{' '}
              <Link to={paths.privacyPolicy()} target="_blank" className={textLinkClass}>
                隱私權政策
              </Link>
            </>
          }
          error={errors.acceptTerms?.message}
          {...form.register('acceptTerms')}
        />
        <Checkbox
          label="我願意收到新品與優惠通知"
          error={errors.marketingMail?.message}
          {...form.register('marketingMail')}
        />
        <Button type="submit" size="lg" loading={isSubmitting}>
          {isSubmitting ? '註冊中…' : '註冊'}
        </Button>
      </form>
    </AuthCard>
  );
}
