import { z } from 'zod';
import { STAFF_ROLES } from './admin.ts';
import { passwordProblem, PASSWORD_MAX, PASSWORD_MIN } from './password-policy.ts';
import { acceptField, confirmed, textField } from './validation/zod.ts';

/** The current user as the client sees it (the user store: userInfo with a uid, providers; docs/product-rules.md#client-stores). */
export const CurrentUser = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  emailVerified: z.boolean(),
  providers: z.array(z.string()),
  /** Present for staff (owner, staff, viewer): the member menu links to the console. */
  console: z.literal(true).optional(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const MeResponse = z.object({ user: CurrentUser.nullable() });
export type MeResponse = z.infer<typeof MeResponse>;
export const UserResponse = z.object({ user: CurrentUser });
export type UserResponse = z.infer<typeof UserResponse>;

export const FIELD_LABELS = {
  email: '電子郵件',
  password: '密碼',
  currentPassword: '目前的密碼',
  newPassword: '新密碼',
  passwordConfirm: '確認密碼',
  displayName: '會員名稱',
} as const;

const email = textField(FIELD_LABELS.email, 'required|email|max:254');
const password = (label: string) =>
  textField(label, `required|min:${PASSWORD_MIN}|max:${PASSWORD_MAX}`, { raw: true });

/** Adds the password policy (common list, not the e-mail) to a schema's `password` field. */
function withPasswordPolicy<T extends z.ZodObject>(schema: T, emailKey?: string) {
  return schema.superRefine((values: Record<string, unknown>, ctx) => {
    const pw = values.password;
    if (typeof pw !== 'string') return;
    const problem = passwordProblem(pw, emailKey ? String(values[emailKey] ?? '') : undefined);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
  });
}

export const RegisterBody = withPasswordPolicy(
  confirmed(
    z
      .object({
        displayName: textField(FIELD_LABELS.displayName, 'required|max:30'),
        email,
        password: password(FIELD_LABELS.password),
        passwordConfirm: textField(FIELD_LABELS.passwordConfirm, 'required', { raw: true }),
        acceptTerms: acceptField('請閱讀並同意服務條款與隱私權政策'),
        /** 「我願意收到新品與優惠通知」: unchecked unless the member ticks it (marketing-mail consent). */
        marketingMail: z.boolean({ error: '請選擇是否要收到新品與優惠通知' }).optional(),
      })
      .strict(),
    'passwordConfirm',
    'password',
    FIELD_LABELS.passwordConfirm,
    FIELD_LABELS.password,
  ),
  'email',
);
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z
  .object({
    email,
    // Sign-in checks only presence: old passwords may predate today's rules.
    password: textField(FIELD_LABELS.password, `required|max:${PASSWORD_MAX}`, { raw: true }),
  })
  .strict();
export type LoginBody = z.infer<typeof LoginBody>;

export const ForgotPasswordBody = z.object({ email }).strict();
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ActionCode = z
  .string()
  .trim()
  .min(16, '連結不完整')
  .max(128, { message: '連結不完整', abort: true })
  .regex(/^[A-Za-z0-9_-]+$/, '連結不完整');

export const VerifyEmailBody = z.object({ code: ActionCode }).strict();
export type VerifyEmailBody = z.infer<typeof VerifyEmailBody>;

export const ResetPasswordBody = confirmed(
  withPasswordPolicy(
    z
      .object({
        code: ActionCode,
        password: password(FIELD_LABELS.newPassword),
        passwordConfirm: textField(FIELD_LABELS.passwordConfirm, 'required', { raw: true }),
      })
      .strict(),
  ),
  'passwordConfirm',
  'password',
  FIELD_LABELS.passwordConfirm,
  FIELD_LABELS.newPassword,
);
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const ChangePasswordBody = confirmed(
  withPasswordPolicy(
    z
      .object({
        password: password(FIELD_LABELS.newPassword),
        passwordConfirm: textField(FIELD_LABELS.passwordConfirm, 'required', { raw: true }),
      })
      .strict(),
  ),
  'passwordConfirm',
  'password',
  FIELD_LABELS.passwordConfirm,
  FIELD_LABELS.newPassword,
);
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ReauthenticateBody = z
  .object({
    password: textField(FIELD_LABELS.currentPassword, `required|max:${PASSWORD_MAX}`, { raw: true }),
  })
  .strict();
export type ReauthenticateBody = z.infer<typeof ReauthenticateBody>;

export const ReauthenticateResponse = z.object({ reauthenticatedUntil: z.string() });
export type ReauthenticateResponse = z.infer<typeof ReauthenticateResponse>;

export const ActionCodeQuery = z.object({
  code: ActionCode,
  kind: z.enum(['reset-password', 'verify-email']),
});
/** A link's address; `invite` when the set-password link is a console invite (accepting it grants the role). */
export const ActionCodeInfo = z.object({
  email: z.string(),
  invite: z.object({ role: z.enum(STAFF_ROLES) }).optional(),
});
export type ActionCodeInfo = z.infer<typeof ActionCodeInfo>;

/** `alreadyVerified`: the link had been used and the address is verified; nothing changed. */
export const VerifyEmailResponse = z.object({
  email: z.string(),
  user: CurrentUser.nullable(),
  alreadyVerified: z.literal(true).optional(),
});
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

export const ResendVerificationResponse = z.object({
  sent: z.boolean(),
  alreadyVerified: z.boolean(),
  retryAfterSeconds: z.number(),
});
export type ResendVerificationResponse = z.infer<typeof ResendVerificationResponse>;

export const OkResponse = z.object({ ok: z.literal(true) });

/** Resend of verification mail waits this long between sends. */
export const RESEND_COOLDOWN_SECONDS = 60;
