import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { FIELD_LABELS, ForgotPasswordBody } from '@shop/shared/auth';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { authApi } from '../api/auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { useResetPasswordStore } from '../stores/reset-password-store.ts';

export function ForgetPasswordPage() {
  const navigate = useNavigate();
  const currentMail = useResetPasswordStore((s) => s.currentMail);
  const form = useForm<ForgotPasswordBody>({
    resolver: zodResolver(ForgotPasswordBody),
    mode: 'onChange',
    defaultValues: { email: currentMail },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, authApi.forgotPassword, (_result, values) => {
    useResetPasswordStore.getState().setCurrentMail(values.email.trim().toLowerCase());
    void navigate(paths.forgetPasswordConfirm());
  });
  return (
    <AuthCard
      title="忘記密碼"
      lead="請輸入您註冊時使用的電子郵件，我們會寄一封重設密碼的信給您。"
      footer={
        <Link to={paths.login()} className={textLinkClass}>
          ← 回到登入
        </Link>
      }
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        {formError && <Alert tone="error">{formError}</Alert>}
        <TextField
          label={FIELD_LABELS.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...form.register('email')}
        />
        <Button type="submit" size="lg" loading={isSubmitting}>
          {isSubmitting ? '寄送中…' : '寄送重設密碼信'}
        </Button>
      </form>
    </AuthCard>
  );
}
