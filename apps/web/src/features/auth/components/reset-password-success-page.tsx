import { ButtonLink } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { AuthCard } from './auth-card.tsx';

export function ResetPasswordSuccessPage() {
  return (
    <AuthCard title="密碼已重設">
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
          您的新密碼已經生效。為了安全，所有裝置上的登入都已登出，請使用新密碼重新登入。
        </p>
        <ButtonLink to={paths.login()} size="lg" className="w-full">
          前往登入
        </ButtonLink>
      </div>
    </AuthCard>
  );
}
