import { z } from 'zod';
import { textField } from './validation/zod.ts';

/**
 * Sign-in through LINE Login and Google (OpenID Connect). The shop's own rules about them:
 * docs/product-rules.md#signing-in-with-line-or-google; why and how: docs/decisions/040-social-sign-in.md.
 */
export const SOCIAL_PROVIDER_IDS = ['line', 'google'] as const;
export const SocialProviderId = z.enum(SOCIAL_PROVIDER_IDS);
export type SocialProviderId = z.infer<typeof SocialProviderId>;

export const SOCIAL_PROVIDER_NAMES: Readonly<Record<SocialProviderId, string>> = {
  line: 'LINE',
  google: 'Google',
};

/** Where a browser starts a trip to a provider (a full-page navigation, not a fetch). */
export const socialStartPath = (
  provider: SocialProviderId,
  query: { redirect?: string; link?: boolean } = {},
) => {
  const params = new URLSearchParams();
  if (query.redirect) params.set('redirect', query.redirect);
  if (query.link) params.set('intent', 'link');
  const search = params.toString();
  return `/api/auth/oidc/${provider}/start${search ? `?${search}` : ''}`;
};

/**
 * Where a trip comes back to when the person still has something to do (an e-mail, a proof): the
 * sign-in page, which then shows that step (a page of its own would grow the route table every
 * page loads).
 */
export const SOCIAL_CONTINUE = 'continue';
export const SOCIAL_PAGE_PATH = `/login?social=${SOCIAL_CONTINUE}`;

/** Why a trip ended without signing in, as `?social=<code>` on /login or the member page. */
export const SOCIAL_PROBLEMS = {
  cancelled: '已取消登入，您可以改用其他方式登入。',
  failed: '登入服務沒有完成驗證，請再試一次。',
  expired: '這次登入已逾時，請重新開始。',
  disabled: '這個帳號已停用，如有疑問請聯絡客服。',
  'linked-elsewhere': '這個登入方式已連結到另一個會員帳號，無法再連結到這個帳號。',
  linked: '已新增登入方式。',
} as const;
export type SocialProblem = keyof typeof SOCIAL_PROBLEMS;
export const SocialProblem = z.enum(Object.keys(SOCIAL_PROBLEMS) as [SocialProblem, ...SocialProblem[]]);

export const SocialProvidersResponse = z.object({ providers: z.array(SocialProviderId) });
export type SocialProvidersResponse = z.infer<typeof SocialProvidersResponse>;

/** The trip waiting on this browser after the provider answered. */
export const SocialPendingResponse = z.object({
  pending: z
    .discriminatedUnion('stage', [
      z.object({
        stage: z.literal('needs-email'),
        provider: SocialProviderId,
        displayName: z.string(),
        /** The provider's address, not verified by it: offered as the default. */
        suggestedEmail: z.string().nullable(),
      }),
      z.object({
        stage: z.literal('needs-proof'),
        provider: SocialProviderId,
        displayName: z.string(),
        /** The existing account's address. */
        email: z.string(),
        /** Whether the account has a password to prove it with (else only a mailed code). */
        hasPassword: z.boolean(),
        codeSent: z.boolean(),
      }),
    ])
    .nullable(),
});
export type SocialPendingResponse = z.infer<typeof SocialPendingResponse>;

export const SocialEmailBody = z.object({ email: textField('電子郵件', 'required|email|max:254') }).strict();
export type SocialEmailBody = z.infer<typeof SocialEmailBody>;

export const SocialPasswordProofBody = z
  .object({ password: textField('密碼', 'required|max:128', { raw: true }) })
  .strict();
export type SocialPasswordProofBody = z.infer<typeof SocialPasswordProofBody>;

export const SocialCodeProofBody = z
  .object({
    code: z
      .string({ error: '請輸入信中的 6 位數字驗證碼' })
      .max(20, { message: '請輸入信中的 6 位數字驗證碼', abort: true })
      .trim()
      .regex(/^\d{6}$/, '請輸入信中的 6 位數字驗證碼'),
  })
  .strict();
export type SocialCodeProofBody = z.infer<typeof SocialCodeProofBody>;

/** Where the browser goes after a step that finished the trip. */
export const SocialDoneResponse = z.object({ redirect: z.string() });
export type SocialDoneResponse = z.infer<typeof SocialDoneResponse>;

export const SignInMethodsResponse = z.object({
  password: z.boolean(),
  identities: z.array(
    z.object({ provider: SocialProviderId, email: z.string().nullable(), linkedAt: z.string() }),
  ),
  /** Providers this shop offers (the ones a member may still link are those not in `identities`). */
  available: z.array(SocialProviderId),
});
export type SignInMethodsResponse = z.infer<typeof SignInMethodsResponse>;

export const LAST_SIGN_IN_METHOD_MESSAGE =
  '這是您唯一的登入方式，請先設定密碼或連結其他登入方式，再取消連結。';
