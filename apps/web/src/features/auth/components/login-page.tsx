import { lazy, Suspense, useSyncExternalStore } from 'react';
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
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { AuthCard } from './auth-card.tsx';
import { PasswordField } from './password-field.tsx';
import { rememberSignedIn, signInReturnPath } from '../session.ts';

/** What is left after LINE or Google answered (an e-mail, a proof): loaded only when it is needed. */
const SocialSignInPage = lazy(() =>
  import('./social-sign-in-page.tsx').then((m) => ({ default: m.SocialSignInPage })),
);
// The provider buttons and notices load after the page, so the first load of `/` (which lists
// every page's own files) does not grow (e2e/budget.spec.ts).
const social = () => import('./social-sign-in-buttons.tsx');
const SocialSignInButtons = lazy(() => social().then((m) => ({ default: m.SocialSignInButtons })));
const SocialProblemNotice = lazy(() => social().then((m) => ({ default: m.SocialProblemNotice })));

const noSubscription = () => () => {};

/** `?social=…` once the page is the app: the server renders /login without it (a page kept for anyone). */
function useSocialParam(): string | null {
  const [params] = useSearchParams();
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return hydrated ? params.get('social') : null;
}

export function LoginPage() {
  const social = useSocialParam();
  // SOCIAL_CONTINUE of @shop/shared/social-sign-in, written out so this page does not load that module.
  if (social === 'continue')
    return (
      <Suspense
        fallback={
          <AuthCard title="完成登入">
            <Skeleton className="h-40" />
          </AuthCard>
        }
      >
        <SocialSignInPage />
      </Suspense>
    );
  return <LoginForm social={social} />;
}

function LoginForm({ social }: { social: string | null }) {
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
      {/* Room for the two buttons, their note and the divider while they load, so the form does not jump. */}
      <Suspense fallback={<div className="min-h-[216px]" />}>
        <SocialProblemNotice social={social} />
        <SocialSignInButtons returnTo={returnTo} dividerLabel="或使用電子郵件登入" />
      </Suspense>
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
