import { useEffect, useState } from 'react';
import { RESEND_COOLDOWN_SECONDS } from '@shop/shared/auth';
import { Button, type ButtonVariant } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { rememberSignedIn } from '../session.ts';
import { useUserStore } from '../stores/user-store.ts';

/** "Resend the verification mail" with the 60 s cooldown shown as a countdown. */
export function ResendVerificationButton({ variant = 'secondary' }: { variant?: ButtonVariant }) {
  const [busy, setBusy] = useState(false);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const email = useUserStore((s) => s.userInfo?.email);

  useEffect(() => {
    if (waitUntil <= now) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil, now]);

  const seconds = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  const resend = async () => {
    setBusy(true);
    try {
      const result = await authApi.resendVerification();
      if (result.alreadyVerified) {
        const user = useUserStore.getState().userInfo;
        if (user) rememberSignedIn({ ...user, emailVerified: true });
        toast.success('您的電子郵件已經驗證完成。');
      } else {
        toast.success(`驗證信已寄到 ${email ?? '您的信箱'}，請於 24 小時內點選信中的連結。`);
        setWaitUntil(Date.now() + RESEND_COOLDOWN_SECONDS * 1000);
        setNow(Date.now());
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        setWaitUntil(Date.now() + RESEND_COOLDOWN_SECONDS * 1000);
        setNow(Date.now());
      }
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant={variant} size="sm" loading={busy} disabled={seconds > 0} onClick={() => void resend()}>
      {seconds > 0 ? `${seconds} 秒後可重新寄送` : '重新寄送驗證信'}
    </Button>
  );
}
