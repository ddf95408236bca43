import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import {
  SOCIAL_PAGE_PATH,
  SOCIAL_PROVIDER_NAMES,
  SocialCodeProofBody,
  SocialEmailBody,
  SocialPasswordProofBody,
  type SocialDoneResponse,
  type SocialPendingResponse,
} from '@shop/shared/social-sign-in';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useApiSubmit } from '../../../lib/form.ts';
import { socialApi, socialPendingQueryOptions } from '../api/social-api.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordField } from './password-field.tsx';

type Pending = NonNullable<SocialPendingResponse['pending']>;

/**
 * After a step: signed in (a full page load, so the whole app starts with the new session), or
 * still here at another stage (the address given belongs to an account, which must be proved).
 */
function useFinish() {
  const client = useQueryClient();
  return ({ redirect }: SocialDoneResponse) => {
    if (redirect === SOCIAL_PAGE_PATH)
      void client.invalidateQueries({ queryKey: socialPendingQueryOptions().queryKey });
    else window.location.assign(redirect);
  };
}

/** /login?social=continue: what is left to do after LINE or Google answered. */
export function SocialSignInPage() {
  const pending = useQuery(socialPendingQueryOptions());
  if (pending.isPending)
    return (
      <AuthCard title="完成登入">
        <Skeleton className="h-40" />
      </AuthCard>
    );
  const data = pending.data?.pending;
  if (!data)
    return (
      <AuthCard
        title="這次登入已逾時"
        lead="登入的步驟要在 30 分鐘內完成。請重新開始，您輸入過的資料都不會被使用。"
      >
        <ButtonLink to={paths.login()} size="lg" className="w-full">
          回到會員登入
        </ButtonLink>
      </AuthCard>
    );
  return data.stage === 'needs-email' ? <EmailStep pending={data} /> : <ProofStep pending={data} />;
}

function EmailStep({ pending }: { pending: Extract<Pending, { stage: 'needs-email' }> }) {
  const provider = SOCIAL_PROVIDER_NAMES[pending.provider];
  return (
    <AuthCard
      title="輸入您的電子郵件"
      lead={`${pending.displayName}，歡迎加入山嵐茶事！${provider} 沒有提供本店能確認的電子郵件，請告訴我們您的電子郵件。`}
    >
      <EmailForm defaultEmail={pending.suggestedEmail ?? ''} submitLabel="建立會員帳號" />
      <p className="mt-4 text-sm text-ink-muted">
        我們會寄一封驗證信給您，完成驗證後即可下單。建立帳號即表示您同意
        <Link to={paths.serviceTerms()} className={textLinkClass}>
          服務條款
        </Link>
        與
        <Link to={paths.privacyPolicy()} className={textLinkClass}>
          隱私權政策
        </Link>
        。
      </p>
    </AuthCard>
  );
}

function EmailForm({ defaultEmail, submitLabel }: { defaultEmail: string; submitLabel: string }) {
  const finish = useFinish();
  const form = useForm<SocialEmailBody>({
    resolver: zodResolver(SocialEmailBody),
    mode: 'onChange',
    defaultValues: { email: defaultEmail },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, socialApi.giveEmail, finish);
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField
        label="電子郵件"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
        error={errors.email?.message}
        {...form.register('email')}
      />
      <Button type="submit" size="lg" loading={isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}

function ProofStep({ pending }: { pending: Extract<Pending, { stage: 'needs-proof' }> }) {
  const provider = SOCIAL_PROVIDER_NAMES[pending.provider];
  const [other, setOther] = useState(false);
  return (
    <AuthCard
      title="這個電子郵件已經是會員"
      lead={
        <>
          <strong className="text-ink">{pending.email}</strong>{' '}
          已有山嵐茶事會員帳號。為了保護這個帳號，本店不會只憑 {provider} 提供的電子郵件就讓它登入。
        </>
      }
    >
      <div className="flex flex-col gap-6">
        <p className="text-sm text-ink">
          如果這是您的帳號，請先證明一次，我們就會把 {provider} 連結到這個帳號，之後可以直接使用 {provider}{' '}
          登入。
        </p>
        {pending.hasPassword && <PasswordProof provider={provider} />}
        <CodeProof email={pending.email} provider={provider} codeSent={pending.codeSent} />
        <div className="border-t border-line pt-5 text-sm">
          {other ? (
            <div className="flex flex-col gap-3">
              <p className="text-ink-muted">
                使用其他電子郵件建立新的會員帳號（{provider} 會連結到新帳號）：
              </p>
              <EmailForm defaultEmail="" submitLabel="使用這個電子郵件建立帳號" />
            </div>
          ) : (
            <p className="text-ink-muted">
              這不是您的帳號？{' '}
              <button type="button" className={textLinkClass} onClick={() => setOther(true)}>
                改用其他電子郵件建立新帳號
              </button>
            </p>
          )}
        </div>
      </div>
    </AuthCard>
  );
}

function PasswordProof({ provider }: { provider: string }) {
  const finish = useFinish();
  const form = useForm<SocialPasswordProofBody>({
    resolver: zodResolver(SocialPasswordProofBody),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, socialApi.proveWithPassword, finish);
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <h2 className="font-semibold text-ink">用這個帳號的密碼證明</h2>
      {formError && <Alert tone="error">{formError}</Alert>}
      <PasswordField
        label="密碼"
        autoComplete="current-password"
        required
        error={errors.password?.message}
        {...form.register('password')}
      />
      <Button type="submit" loading={isSubmitting}>
        登入並連結 {provider}
      </Button>
    </form>
  );
}

function CodeProof({ email, provider, codeSent }: { email: string; provider: string; codeSent: boolean }) {
  const finish = useFinish();
  const [sent, setSent] = useState(codeSent);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const form = useForm<SocialCodeProofBody>({
    resolver: zodResolver(SocialCodeProofBody),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { formError, onSubmit } = useApiSubmit(form, socialApi.proveWithCode, finish);
  const send = async () => {
    setSending(true);
    setSendError(null);
    try {
      await socialApi.sendProofCode();
      setSent(true);
    } catch (error) {
      setSendError(error instanceof Error ? error.message : '驗證碼沒有寄出，請稍後再試。');
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <h2 className="font-semibold text-ink">用寄到信箱的驗證碼證明</h2>
      {sendError && <Alert tone="error">{sendError}</Alert>}
      {sent ? (
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-ink-muted">驗證碼已寄到 {email}，10 分鐘內有效。</p>
          {formError && <Alert tone="error">{formError}</Alert>}
          <TextField
            label="6 位數字驗證碼"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            error={errors.code?.message}
            {...form.register('code')}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" loading={isSubmitting}>
              確認並連結 {provider}
            </Button>
            <Button type="button" variant="ghost" loading={sending} onClick={() => void send()}>
              重新寄送
            </Button>
          </div>
        </form>
      ) : (
        <Button type="button" variant="secondary" loading={sending} onClick={() => void send()}>
          寄驗證碼到這個信箱
        </Button>
      )}
    </div>
  );
}
