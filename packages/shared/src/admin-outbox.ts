import { z } from 'zod';
import { pageOf } from './admin.ts';

/**
 * The console's view of the outbox: mails and gateway calls that follow a change, delivered in the
 * background and retried (1 s, ×1.5, at most 60 s) for a day before they wait for staff.
 */
export const OUTBOX_STATUSES = ['pending', 'failed', 'sent'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OUTBOX_STATUS_LABELS: Readonly<Record<OutboxStatus, string>> = {
  pending: '待送出',
  failed: '失敗',
  sent: '已送出',
};

/** What each kind of message is, in the console's words. */
export const OUTBOX_KIND_LABELS: Readonly<Record<string, string>> = {
  mail: '電子郵件',
  'invoice.issue': '開立發票',
  'invoice.void': '作廢發票',
  'invoice.allowance': '發票折讓',
  'payment.refund': '刷卡退款',
  'logistics.prepare': '建立物流單',
};

/** `attention`: pending and failed together, failed first (the default view). */
export const OutboxListQuery = z
  .object({
    status: z
      .enum(['attention', ...OUTBOX_STATUSES], { message: '狀態必須是 attention、pending、failed 或 sent' })
      .default('attention'),
    page: z.coerce
      .number({ message: '頁碼必須是數字' })
      .int('頁碼必須是整數')
      .min(1, '頁碼至少是 1')
      .max(10_000, '頁碼太大')
      .default(1),
  })
  .strict();
export type OutboxListQuery = z.infer<typeof OutboxListQuery>;

export const OutboxRow = z.object({
  id: z.number().int(),
  kind: z.string(),
  summary: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When the next try is due (pending), null otherwise. */
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type OutboxRow = z.infer<typeof OutboxRow>;

export const OutboxListResponse = pageOf(OutboxRow).extend({
  counts: z.object({ pending: z.number().int(), failed: z.number().int() }),
});
export type OutboxListResponse = z.infer<typeof OutboxListResponse>;

export const OutboxIdParams = z.object({
  id: z.coerce
    .number({ message: '編號必須是數字' })
    .int('編號必須是整數')
    .min(1, '編號必須是正整數')
    .max(Number.MAX_SAFE_INTEGER, '編號太大'),
});
