import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { ResendVerificationButton } from './resend-verification.tsx';
import { rememberSignedIn } from '../session.ts';
import { useIsLogin, useUserStore } from '../stores/user-store.ts';
import { actionCodeProblemTitle } from './action-code-problem.tsx';

/** Opens the mailed verification link (/emailVerification?code=…): success, already verified (a used link), expired or invalid. */
export function EmailVerificationPage() {
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const isLogin = useIsLogin();
  const user = useUserStore((s) => s.userInfo);
  // One verification per code and page load, even under StrictMode's double effects. Never on
  // the server: a mail scanner or a link preview fetching the link (no script) must not spend it.
  const verify = useQuery({
    queryKey: ['auth', 'verify-email', code],
    queryFn: async () => {
      const result = await authApi.verifyEmail(code);
      if (result.user) rememberSignedIn(result.user);
      return result;
    },
    enabled: code.length > 0 && !import.meta.env.SSR,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

  const resendOrLogin = isLogin ? (
    <ResendVerificationButton variant="primary" />
  ) : (
    <ButtonLink to={paths.login(paths.emailVerification())}>登入後重新寄送驗證信</ButtonLink>
  );

  if (!code) {
    const verified = user?.emailVerified === true;
    return (
      <AuthCard title={verified ? '電子郵件已驗證' : '驗證您的電子郵件'}>
        <div className="flex flex-col items-center gap-5 text-center">
          <p className="leading-relaxed text-ink">
            {verified
              ? `${user.email} 已經完成驗證，謝謝您。`
              : isLogin
                ? `我們已寄驗證信到 ${user?.email ?? '您的信箱'}，請點選信中的連結完成驗證。連結 24 小時內有效。`
                : '請點選驗證信中的連結完成驗證。若連結已過期，請登入後重新寄送。'}
          </p>
          {!verified && resendOrLogin}
        </div>
      </AuthCard>
    );
  }

  if (verify.isPending) {
    return (
      <AuthCard title="正在驗證">
        <div role="status" aria-label="正在驗證您的電子郵件">
          <SkeletonText lines={2} />
        </div>
      </AuthCard>
    );
  }

  if (verify.isError) {
    return (
      <AuthCard title={actionCodeProblemTitle(verify.error)}>
        <div className="flex flex-col items-center gap-5 text-center">
          <p className="leading-relaxed text-ink">{errorMessage(verify.error)}</p>
          {user?.emailVerified ? <ButtonLink to={paths.member()}>前往會員中心</ButtonLink> : resendOrLogin}
        </div>
      </AuthCard>
    );
  }

  const again = verify.data.alreadyVerified === true;
  return (
    <AuthCard title={again ? '這個信箱已經驗證完成' : '電子郵件驗證完成'}>
      <div className="flex flex-col items-center gap-5 text-center">
        <svg
          viewBox="0 0 48 48"
          className="size-14 text-success"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <circle cx="24" cy="24" r="20" />
          <path d="m15 24 6 6 12-13" />
        </svg>
        <p className="leading-relaxed text-ink">
          <strong className="break-all">{verify.data.email}</strong>{' '}
          {again ? '先前已經完成驗證，不需要再點一次連結。' : '已完成驗證。'}
          之後的訂單通知與優惠訊息都會寄到這個信箱。
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <ButtonLink to={paths.mall()}>逛逛商城</ButtonLink>
          <ButtonLink to={isLogin ? paths.member() : paths.login()} variant="secondary">
            {isLogin ? '前往會員中心' : '前往登入'}
          </ButtonLink>
        </div>
      </div>
    </AuthCard>
  );
}
