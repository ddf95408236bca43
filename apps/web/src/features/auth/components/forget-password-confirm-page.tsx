import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { useResetPasswordStore } from '../stores/reset-password-store.ts';

/** Tells the user to check the mailbox shown from the reset-password store's currentMail. */
export function ForgetPasswordConfirmPage() {
  const currentMail = useResetPasswordStore((s) => s.currentMail);
  const [state, setState] = useState<{ busy: boolean; message: string | null; tone: 'success' | 'error' }>({
    busy: false,
    message: null,
    tone: 'success',
  });

  const resend = async () => {
    setState({ busy: true, message: null, tone: 'success' });
    try {
      await authApi.forgotPassword({ email: currentMail });
      setState({ busy: false, message: '已重新寄出，請查看最新的一封信。', tone: 'success' });
    } catch (error) {
      setState({ busy: false, message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <AuthCard
      title="請至信箱收信"
      footer={
        <Link to={paths.login()} className={textLinkClass}>
          ← 回到登入
        </Link>
      }
    >
      <div className="flex flex-col gap-5 text-ink">
        {currentMail ? (
          <p className="leading-relaxed">
            如果 <strong className="break-all text-tea-dark">{currentMail}</strong>{' '}
            是已註冊的帳號，您會在幾分鐘內收到一封「重設您的密碼」的信。請點選信中的按鈕設定新密碼，連結在 1
            小時內有效。
          </p>
        ) : (
          <p className="leading-relaxed">如果您輸入的是已註冊的電子郵件，您會在幾分鐘內收到重設密碼的信。</p>
        )}
        <ul className="list-disc space-y-1 pl-5 text-sm text-ink-muted">
          <li>沒看到信？請檢查垃圾郵件或促銷郵件匣。</li>
          <li>為了保護會員資料，無論這個信箱是否註冊過，我們都會顯示相同的訊息。</li>
        </ul>
        {state.message && <Alert tone={state.tone}>{state.message}</Alert>}
        <div className="flex flex-col gap-3 sm:flex-row">
          {currentMail && (
            <Button variant="secondary" loading={state.busy} onClick={() => void resend()}>
              重新寄送
            </Button>
          )}
          <ButtonLink to={paths.forgetPassword()} variant="ghost">
            使用其他電子郵件
          </ButtonLink>
        </div>
      </div>
    </AuthCard>
  );
}
