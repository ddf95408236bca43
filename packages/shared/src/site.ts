import { z } from 'zod';
import { acceptField, textField } from './validation/zod.ts';

export const CONTACT_SUBJECTS = [
  '訂單與配送',
  '商品諮詢',
  '會員與帳號',
  '企業採購與禮盒',
  '應徵工作',
  '其他',
] as const;

/** The contact form (shared by the page and the API). `website` is a honeypot; `startedAt` is when the form was shown. */
export const ContactBody = z
  .object({
    name: textField('姓名', 'required|max:30'),
    email: textField('電子郵件', 'required|email|max:254'),
    phone: z
      .string()
      .trim()
      .max(20, { message: '電話不能超過 20 個字元', abort: true })
      .refine((v) => v === '' || /^[0-9+()\-\s#]{7,20}$/.test(v), '電話號碼格式不正確')
      .default(''),
    subject: z.enum(CONTACT_SUBJECTS, { message: '請選擇詢問類別' }),
    message: textField('訊息內容', 'required|min:10|max:2000'),
    jobSlug: z
      .string()
      .max(80, { abort: true })
      .regex(/^[a-z0-9-]{1,80}$/)
      .optional(),
    consent: acceptField('請閱讀並同意隱私權政策'),
    website: z.string().max(200).default(''),
    startedAt: z.number().int().nonnegative(),
  })
  .strict();
export type ContactBody = z.infer<typeof ContactBody>;
export type ContactInput = z.input<typeof ContactBody>;

export const ContactResponse = z.object({ referenceNo: z.string() });

export const MaintenanceStatus = z.object({
  enabled: z.boolean(),
  /** ISO time the shop expects to be back, if known. */
  endsAt: z.string().nullable(),
  message: z.string(),
});
export type MaintenanceStatus = z.infer<typeof MaintenanceStatus>;

export const SetMaintenanceBody = z
  .object({
    enabled: z.boolean(),
    endsAt: z.iso.datetime({ offset: true, message: '結束時間格式不正確' }).nullable().default(null),
    message: z.string().trim().max(200).default(''),
  })
  .strict();
export type SetMaintenanceBody = z.infer<typeof SetMaintenanceBody>;
