import { z } from 'zod';
import { pageOf } from './admin.ts';
import { TW_BANKS } from './data/tw-banks.ts';

/**
 * Returns from the member area (docs/product-rules.md#returns): within the return period counted
 * from delivery, a member asks to return some or all of a delivered order's items, with a reason
 * and up to three photos; staff approve or refuse; the goods arrive, staff choose what goes back
 * to stock, and the money goes back (card: through ECPay; ATM and cash on delivery: a transfer to
 * the account the member gave).
 */

/** Days after delivery a member may ask to return (the 七天鑑賞期); the owner may lengthen it. */
export const DEFAULT_RETURN_DAYS = 7;
export const MAX_RETURN_DAYS = 60;
export const MAX_RETURN_PHOTOS = 3;
/** Photos one order may hold in all, across its return requests and uploads never sent with one. */
export const MAX_RETURN_PHOTOS_PER_ORDER = 12;
/** Largest return photo, in bytes. */
export const MAX_RETURN_PHOTO_BYTES = 8 * 1024 * 1024;

export const RETURN_REASONS = {
  damaged: '商品瑕疵或運送損壞',
  wrong_item: '收到的商品與訂購的不同',
  not_as_described: '商品與說明不符',
  changed_mind: '不想要了（鑑賞期內退貨）',
  other: '其他原因',
} as const;
export type ReturnReason = keyof typeof RETURN_REASONS;

export const RETURN_STATUSES = ['requested', 'approved', 'refused', 'received'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_STATUS_LABELS: Readonly<Record<ReturnStatus, string>> = {
  requested: '等待審核',
  approved: '已核准，等待寄回',
  refused: '未核准',
  received: '已收到退貨',
};

/** A bank account money goes back to: a listed bank code, the account's digits, the holder's name. */
export const RefundAccount = z.object({
  bankCode: z
    .string()
    .max(10, { message: '請輸入 3 位數的銀行代碼', abort: true })
    .trim()
    .regex(/^\d{3}$/, '請輸入 3 位數的銀行代碼')
    .refine((c) => c in TW_BANKS, '查無這個銀行代碼，請確認後再輸入'),
  account: z
    .string()
    .max(40, { message: '帳號為 10–16 位數字（可省略空格與「-」）', abort: true })
    .trim()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .max(40, { message: '帳號為 10–16 位數字（可省略空格與「-」）', abort: true })
        .regex(/^\d{10,16}$/, '帳號為 10–16 位數字（可省略空格與「-」）'),
    ),
  holder: z.string().trim().min(1, '請輸入戶名').max(40, '戶名最多 40 個字'),
});
export type RefundAccount = z.infer<typeof RefundAccount>;

export const ReturnRequestBody = z
  .object({
    items: z
      .array(
        z
          .object({
            itemId: z.uuid('商品項目不正確'),
            quantity: z.number().int('數量必須是整數').min(1, '數量至少為 1').max(999),
          })
          .strict(),
      )
      .min(1, '請選擇要退回的商品')
      .max(100),
    reason: z.enum(Object.keys(RETURN_REASONS) as [ReturnReason, ...ReturnReason[]], {
      message: '請選擇退貨原因',
    }),
    detail: z.string().trim().max(500, '說明最多 500 個字').default(''),
    photos: z
      .array(z.string().max(200))
      .max(MAX_RETURN_PHOTOS, `照片最多 ${MAX_RETURN_PHOTOS} 張`)
      .default([]),
    refundAccount: RefundAccount.optional(),
  })
  .strict()
  .refine((b) => b.reason !== 'other' || b.detail.length > 0, {
    message: '選擇「其他原因」時，請說明原因',
    path: ['detail'],
  })
  .refine((b) => new Set(b.items.map((i) => i.itemId)).size === b.items.length, {
    message: '同一項商品請只列一次',
    path: ['items'],
  });
export type ReturnRequestBody = z.input<typeof ReturnRequestBody>;

export const ReturnPhotoResponse = z.object({ name: z.string(), url: z.string() });

export const ReturnView = z.object({
  returnNo: z.string(),
  status: z.enum(RETURN_STATUSES),
  reason: z.string(),
  detail: z.string(),
  photos: z.array(z.string()),
  amount: z.number().int(),
  items: z.array(
    z.object({
      itemId: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      /** What these items cost on the order, before the order's discounts. */
      price: z.number().int(),
      /** What they are worth back: the price less their share of the discounts. */
      amount: z.number().int(),
      restock: z.boolean().nullable(),
    }),
  ),
  staffMessage: z.string().nullable(),
  /** Where the money goes back to, masked (ATM and cash on delivery). */
  bank: z.string().nullable(),
  refund: z
    .object({ status: z.enum(['pending', 'done', 'failed']), doneAt: z.string().nullable() })
    .nullable(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
});
export type ReturnView = z.infer<typeof ReturnView>;

/** What the member may still return, and until when (null: not returnable). */
export const Returnable = z.object({
  until: z.string(),
  /** Order items and how many of each may still be asked for. */
  items: z.array(z.object({ itemId: z.string(), quantity: z.number().int() })),
  /** ATM and cash on delivery: the refund needs a bank account. */
  needsAccount: z.boolean(),
});
export type Returnable = z.infer<typeof Returnable>;

export const ReturnDecisionBody = z
  .object({ message: z.string().trim().max(500, '最多 500 個字').default('') })
  .strict();
export const RefuseReturnBody = z
  .object({ message: z.string().trim().min(1, '請說明不核准的原因，會寄給會員').max(500, '最多 500 個字') })
  .strict();
export const ReceiveReturnBody = z
  .object({
    items: z
      .array(z.object({ itemId: z.uuid(), restock: z.boolean() }).strict())
      .min(1)
      .max(100),
  })
  .strict();
export const ReturnNoParams = z.object({
  returnNo: z
    .string()
    .max(24, { message: '退貨編號格式不正確', abort: true })
    .regex(/^TW\d{14}-R\d{1,3}$/, '退貨編號格式不正確'),
});

/** The console's list of returns and of transfers waiting to be made. */
export const AdminReturnSummary = z.object({
  returnNo: z.string(),
  orderNo: z.string(),
  status: z.enum(RETURN_STATUSES),
  memberName: z.string(),
  memberEmail: z.string(),
  reason: z.string(),
  amount: z.number().int(),
  itemCount: z.number().int(),
  refund: z.enum(['pending', 'done', 'failed']).nullable(),
  requestedAt: z.string(),
});
export const AdminReturnsQuery = z
  .object({
    status: z.enum([...RETURN_STATUSES, 'open', 'all'], { message: '狀態不正確' }).default('open'),
    page: z
      .string()
      .max(5, { message: '頁碼必須是整數', abort: true })
      .regex(/^\d{1,5}$/, '頁碼必須是整數')
      .transform(Number)
      .refine((n) => n >= 1, '頁碼至少為 1')
      .default(1),
  })
  .strict();
export const AdminReturnsResponse = pageOf(AdminReturnSummary);
export type AdminReturnsResponse = z.infer<typeof AdminReturnsResponse>;

export const TransferTask = z.object({
  id: z.string(),
  orderNo: z.string(),
  memberName: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  /** Full account for staff making the transfer; null while the member has not given one. */
  bank: z
    .object({ bankCode: z.string(), bankName: z.string(), account: z.string(), holder: z.string() })
    .nullable(),
  createdAt: z.string(),
});
export const TransferTasksResponse = z.object({ items: z.array(TransferTask) });
export type TransferTasksResponse = z.infer<typeof TransferTasksResponse>;
export const TransferDoneBody = z.object({ note: z.string().trim().max(200).default('') }).strict();
export const RefundIdParams = z.object({ id: z.uuid('退款編號不正確') });
