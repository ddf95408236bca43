import { z } from 'zod';
import { PagingQuery } from './admin.ts';
import { formatTwd } from './money.ts';
import { ShippingRules } from './shipping.ts';
import { CONTACT_SUBJECTS } from './site.ts';

// ── shipping fee rules ──────────────────────────────────────────────────────────────────────────

const blank = (input: unknown) =>
  input === undefined || input === null || input === '' || (typeof input === 'number' && Number.isNaN(input));

/** A whole number of TWD between min and max, with zh-TW messages naming the field. */
const amount = (label: string, min: number, max: number) =>
  z
    .number({ error: (issue) => (blank(issue.input) ? `請填寫${label}` : `${label}必須是整數`) })
    .int(`${label}必須是整數`)
    .min(min, min === 0 ? `${label}不能是負數` : `${label}至少為 ${formatTwd(min)}`)
    .max(max, `${label}不能超過 ${formatTwd(max)}`);

const leadTime = z
  .string({ error: '請填寫出貨與到貨時間' })
  .trim()
  .min(1, '請填寫出貨與到貨時間')
  .max(60, '出貨與到貨時間不能超過 60 個字');

const methodRule = z
  .object({ fee: amount('運費', 0, 10_000), freeOver: amount('免運門檻', 1, 1_000_000), leadTime })
  .strict();

/** PUT /api/admin/settings/shipping: the editable amounts and lead times (names stay fixed in code). */
export const UpdateShippingBody = z
  .object({
    home: methodRule,
    cvs: methodRule,
    outlyingSurcharge: amount('離島加收運費', 0, 10_000),
    codFee: amount('貨到付款手續費', 0, 10_000),
  })
  .strict();
export type UpdateShippingBody = z.infer<typeof UpdateShippingBody>;
export type UpdateShippingInput = z.input<typeof UpdateShippingBody>;

/** The console's view of the rules: the table in force and when it was last saved (null: the defaults). */
export const ShippingSettingsView = z.object({ rules: ShippingRules, updatedAt: z.string().nullable() });
export type ShippingSettingsView = z.infer<typeof ShippingSettingsView>;

// ── redirects ───────────────────────────────────────────────────────────────────────────────────

/** An old address on this site, e.g. /mall/old-oolong (stored lower-case, without a trailing slash). */
export const RedirectPath = z
  .string({ error: '請填寫原路徑' })
  .trim()
  .min(1, '請填寫原路徑')
  .max(300, { message: '原路徑不能超過 300 個字元', abort: true })
  .refine((p) => p.startsWith('/') && !p.startsWith('//'), '原路徑必須以 / 開頭，例如 /mall/old-oolong')
  .refine((p) => !/[\s?#]/.test(p), '原路徑不能包含空白、? 或 #');

/** Where it goes: a path on this site (a query string is allowed). */
export const RedirectTargetPath = z
  .string({ error: '請填寫目標路徑' })
  .trim()
  .min(1, '請填寫目標路徑')
  .max(500, { message: '目標路徑不能超過 500 個字元', abort: true })
  .refine(
    (p) => p.startsWith('/') && !p.startsWith('//') && !p.startsWith('/\\'),
    '目標必須是本站的路徑，以 / 開頭，例如 /mall/dong-ding',
  )
  .refine((p) => !/\s/.test(p), '目標路徑不能包含空白');

export const AdminRedirect = z.object({
  path: z.string(),
  target: z.string(),
  permanent: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminRedirect = z.infer<typeof AdminRedirect>;

export const RedirectListQuery = PagingQuery.extend({
  q: z.string().trim().max(200, '搜尋字詞不能超過 200 個字').optional(),
}).strict();
export type RedirectListQuery = z.infer<typeof RedirectListQuery>;

/** POST /api/admin/redirects (create) and PUT /api/admin/redirects (change the target of an existing path). */
export const RedirectBody = z
  .object({
    path: RedirectPath,
    target: RedirectTargetPath,
    permanent: z.boolean({ error: '請選擇永久或暫時轉址' }).default(true),
  })
  .strict();
export type RedirectBody = z.infer<typeof RedirectBody>;
export type RedirectInput = z.input<typeof RedirectBody>;

/** DELETE /api/admin/redirects?path=/mall/old-oolong */
export const RedirectPathQuery = z.object({ path: RedirectPath }).strict();

// ── contact messages ────────────────────────────────────────────────────────────────────────────

export const MESSAGE_SORTS = ['newest', 'unhandled-first'] as const;

export const MessageListQuery = PagingQuery.extend({
  handled: z.enum(['yes', 'no'], { message: '處理狀態必須是 yes 或 no' }).optional(),
  subject: z.enum(CONTACT_SUBJECTS, { message: '沒有這個詢問類別' }).optional(),
  q: z.string().trim().max(200, '搜尋字詞不能超過 200 個字').optional(),
  /** Newest first (the default), or the unhandled ones first and then newest first. */
  sort: z.enum(MESSAGE_SORTS, { message: '排序必須是 newest 或 unhandled-first' }).default('newest'),
}).strict();
export type MessageListQuery = z.infer<typeof MessageListQuery>;

export const AdminMessageRow = z.object({
  referenceNo: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  /** The start of the message, for the table. */
  excerpt: z.string(),
  jobSlug: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});
export type AdminMessageRow = z.infer<typeof AdminMessageRow>;

export const MessageReply = z.object({
  body: z.string(),
  at: z.string(),
  /** Who wrote it (the staff member's address); null when no longer known. */
  by: z.string().nullable(),
});
export type MessageReply = z.infer<typeof MessageReply>;

export const AdminMessage = AdminMessageRow.omit({ excerpt: true }).extend({
  phone: z.string().nullable(),
  message: z.string(),
  /** The opening applied for, when the job is still on the site. */
  jobTitle: z.string().nullable(),
  /** The shop's replies, sent by mail from the console, oldest first. */
  replies: z.array(MessageReply),
});

/** A reply to a contact message, mailed to the sender and kept with the message. */
export const ReplyMessageBody = z
  .object({
    body: z
      .string({ error: '請輸入回覆內容' })
      .trim()
      .min(1, '請輸入回覆內容')
      .max(2000, '回覆內容最多 2000 個字'),
  })
  .strict();
export type ReplyMessageBody = z.infer<typeof ReplyMessageBody>;
export type AdminMessage = z.infer<typeof AdminMessage>;

export const MessageRefParams = z.object({
  referenceNo: z
    .string()
    .max(21, { message: '客服單號格式不正確', abort: true })
    .regex(/^C\d{13,20}$/, '客服單號格式不正確'),
});

export const SetMessageHandledBody = z.object({ handled: z.boolean({ error: '請指定是否已處理' }) }).strict();
export type SetMessageHandledBody = z.infer<typeof SetMessageHandledBody>;

/** The shop's own mails (to SHOP_NOTIFY_EMAIL): one per order to fulfil, and a morning digest of the day before. */
export const NotificationSettings = z
  .object({
    newOrderMail: z.boolean({ error: '請指定是否寄送新訂單通知' }),
    dailyDigest: z.boolean({ error: '請指定是否寄送每日摘要' }),
  })
  .strict();
export type NotificationSettings = z.infer<typeof NotificationSettings>;
export const DEFAULT_NOTIFICATIONS: NotificationSettings = { newOrderMail: true, dailyDigest: true };

/** How many days after delivery a member may ask to return an order (at least the legal seven). */
export const ReturnSettings = z
  .object({
    days: z
      .number({ error: '請輸入天數' })
      .int('天數必須是整數')
      .min(7, '至少 7 天（七天鑑賞期）')
      .max(60, '最多 60 天'),
  })
  .strict();
export type ReturnSettings = z.infer<typeof ReturnSettings>;

/** The card hold (docs/product-rules.md): a card order holds its goods this many minutes. */
export const CARD_HOLD_MINUTES = 30;

/**
 * The shop's reminder mails (docs/product-rules.md#reminders): each can be switched off; the card
 * reminder goes `cardLeadMinutes` before the card hold ends, the abandoned-cart one
 * `abandonedCartHours` after the cart last changed.
 */
export const ReminderSettings = z
  .object({
    cardPayment: z.boolean({ error: '請指定是否寄送信用卡付款提醒' }),
    cardLeadMinutes: z
      .number({ error: '請輸入分鐘數' })
      .int('分鐘數必須是整數')
      .min(5, '至少 5 分鐘')
      .max(20, `最多 20 分鐘（保留時間共 ${CARD_HOLD_MINUTES} 分鐘）`),
    atmTransfer: z.boolean({ error: '請指定是否寄送 ATM 轉帳提醒' }),
    abandonedCart: z.boolean({ error: '請指定是否寄送購物車提醒' }),
    abandonedCartHours: z
      .number({ error: '請輸入小時數' })
      .int('小時數必須是整數')
      .min(1, '至少 1 小時')
      .max(168, '最多 168 小時（7 天）'),
  })
  .strict();
export type ReminderSettings = z.infer<typeof ReminderSettings>;
export const DEFAULT_REMINDERS: ReminderSettings = {
  cardPayment: true,
  cardLeadMinutes: 10,
  atmTransfer: true,
  abandonedCart: true,
  abandonedCartHours: 24,
};
