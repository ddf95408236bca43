import { z } from 'zod';
import { PagingQuery } from './admin.ts';
import { TierView } from './membership.ts';
import { formatTwd } from './money.ts';

/**
 * The console's coupons and membership tiers: list and detail shapes, the coupon form's body and
 * the all-at-once tier edit, with zh-TW messages for every field. Times are ISO strings with an
 * offset; the console shows and edits them in Taipei time (UTC+8, no daylight saving).
 */

// ── Taipei time for datetime inputs ─────────────────────────────────────────────────────────────

const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000;

/** `2026-05-01T10:00` (a datetime-local value) for an instant, in Taipei time. */
export function isoToTaipeiLocal(iso: string | Date): string {
  const t = typeof iso === 'string' ? Date.parse(iso) : iso.getTime();
  return new Date(t + TAIPEI_OFFSET_MS).toISOString().slice(0, 16);
}

/** `2026-05-01T10:00:00+08:00` from a datetime-local value read as Taipei time; null when it is not one. */
export function taipeiLocalToIso(local: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local.trim());
  if (!m) return null;
  const iso = `${local.trim()}:00+08:00`;
  const t = Date.parse(iso);
  // Date.parse rolls 02-30 over to 03-02; a real date reads back the same.
  if (Number.isNaN(t) || isoToTaipeiLocal(new Date(t)) !== local.trim()) return null;
  return iso;
}

// ── coupons ─────────────────────────────────────────────────────────────────────────────────────

export const COUPON_STATES = ['running', 'paused', 'upcoming', 'expired'] as const;
export type CouponState = (typeof COUPON_STATES)[number];
export const COUPON_STATE_LABELS: Readonly<Record<CouponState, string>> = {
  running: '進行中',
  paused: '已暫停',
  upcoming: '未開始',
  expired: '已過期',
};

/** What a coupon is right now: an ended coupon reads 已過期 even when paused. */
export function couponState(
  c: { status: 'active' | 'paused'; startsAt: string | Date; endsAt: string | Date },
  now: Date = new Date(),
): CouponState {
  const starts = new Date(c.startsAt).getTime();
  const ends = new Date(c.endsAt).getTime();
  if (now.getTime() >= ends) return 'expired';
  if (c.status === 'paused') return 'paused';
  if (now.getTime() < starts) return 'upcoming';
  return 'running';
}

/** 「折 NT$200」 or 「折 10%」. */
export function couponValueText(c: { kind: 'percent' | 'fixed'; value: number }): string {
  return c.kind === 'percent' ? `折 ${c.value}%` : `折 ${formatTwd(c.value)}`;
}

export const COUPON_VALIDITY = ['now', 'upcoming', 'expired'] as const;
export const COUPON_VALIDITY_LABELS: Readonly<Record<(typeof COUPON_VALIDITY)[number], string>> = {
  now: '目前有效',
  upcoming: '尚未開始',
  expired: '已結束',
};

export const CouponListQuery = PagingQuery.extend({
  q: z.string().trim().max(100, '搜尋文字不能超過 100 個字元').optional(),
  status: z.enum(['active', 'paused'], { message: '狀態只能是啟用或暫停' }).optional(),
  validity: z.enum(COUPON_VALIDITY, { message: '期間只能是目前有效、尚未開始或已結束' }).optional(),
  /** shared: for everyone (listed or by code); personal: one member's own (birthday coupons). */
  scope: z.enum(['shared', 'personal'], { message: '類型只能是公開或個人' }).optional(),
}).strict();
export type CouponListQuery = z.infer<typeof CouponListQuery>;

export const CouponRow = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(['percent', 'fixed']),
  value: z.number().int(),
  minSpend: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  totalLimit: z.number().int().nullable(),
  perMemberLimit: z.number().int(),
  usedCount: z.number().int(),
  status: z.enum(['active', 'paused']),
  state: z.enum(COUPON_STATES),
  listed: z.boolean(),
  /** Empty: every tier may use it. */
  tierCodes: z.array(z.string()),
  /** A personal coupon belongs to one member (its e-mail). */
  ownerEmail: z.string().nullable(),
});
export type CouponRow = z.infer<typeof CouponRow>;

export const CouponRedemption = z.object({
  orderNo: z.string(),
  memberId: z.string(),
  memberName: z.string(),
  memberEmail: z.string(),
  amount: z.number().int(),
  at: z.string(),
});
export type CouponRedemption = z.infer<typeof CouponRedemption>;

export const CouponDetail = CouponRow.extend({
  /** Empty: the whole cart counts. */
  categoryIds: z.array(z.string()),
  ownerId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The latest 20 uses, newest first. */
  redemptions: z.array(CouponRedemption),
});
export type CouponDetail = z.infer<typeof CouponDetail>;

/** What the coupon form offers: the tiers and the product categories a coupon can be limited to. */
export const CouponOptions = z.object({
  tiers: z.array(z.object({ code: z.string(), name: z.string() })),
  categories: z.array(z.object({ id: z.string(), name: z.string(), parentName: z.string().nullable() })),
});
export type CouponOptions = z.infer<typeof CouponOptions>;

export const CouponIdParams = z.object({ couponId: z.uuid({ message: '優惠券編號格式不正確' }) }).strict();

const whole = (message: string) => z.number({ error: message }).int(message);
const instant = (label: string) => z.iso.datetime({ offset: true, message: `${label}格式不正確` });

/** The coupon form: the same rules on the page and on the server. */
export const CouponBody = z
  .object({
    code: z
      .string({ error: '請填寫優惠碼' })
      .trim()
      .toUpperCase()
      .min(1, '請填寫優惠碼')
      .max(32, { message: '優惠碼只能使用英文字母、數字與連字號，長度 3 到 32 個字元', abort: true })
      .regex(/^[A-Z0-9-]{3,32}$/, '優惠碼只能使用英文字母、數字與連字號，長度 3 到 32 個字元'),
    name: z.string({ error: '請填寫名稱' }).trim().min(1, '請填寫名稱').max(40, '名稱不能超過 40 個字元'),
    kind: z.enum(['percent', 'fixed'], { message: '請選擇折扣方式' }),
    value: whole('折扣必須是整數'),
    minSpend: whole('最低消費必須是整數').min(0, '最低消費不能是負數').max(10_000_000, '最低消費太大了'),
    startsAt: instant('開始時間'),
    endsAt: instant('結束時間'),
    totalLimit: whole('總使用次數必須是整數')
      .min(1, '總使用次數至少 1 次；不限次數請留空')
      .max(10_000_000, '總使用次數太大了')
      .nullable(),
    perMemberLimit: whole('每人使用次數必須是整數')
      .min(1, '每人至少可用 1 次')
      .max(1000, '每人使用次數最多 1000 次'),
    tierCodes: z
      .array(
        z
          .string()
          .max(30, { message: '會員等級格式不正確', abort: true })
          .regex(/^[a-z0-9-]{1,30}$/, '會員等級格式不正確'),
        { error: '會員等級格式不正確' },
      )
      .max(20)
      .default([]),
    categoryIds: z
      .array(z.uuid({ message: '商品分類格式不正確' }), { error: '商品分類格式不正確' })
      .max(50)
      .default([]),
    listed: z.boolean({ error: '請選擇是否顯示在會員的優惠券列表' }).default(false),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'percent' && (v.value < 1 || v.value > 100))
      ctx.addIssue({ code: 'custom', path: ['value'], message: '百分比折扣必須是 1 到 100 之間的整數' });
    if (v.kind === 'fixed' && (v.value < 1 || v.value > 1_000_000))
      ctx.addIssue({ code: 'custom', path: ['value'], message: '折抵金額必須是 1 以上的整數（新臺幣元）' });
    if (Date.parse(v.endsAt) <= Date.parse(v.startsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: '結束時間必須晚於開始時間' });
    if (new Set(v.tierCodes).size !== v.tierCodes.length)
      ctx.addIssue({ code: 'custom', path: ['tierCodes'], message: '會員等級重複了' });
  });
export type CouponBody = z.infer<typeof CouponBody>;
export type CouponBodyInput = z.input<typeof CouponBody>;

// ── tiers ───────────────────────────────────────────────────────────────────────────────────────

export const TierAdminView = TierView.extend({ sortOrder: z.number().int(), memberCount: z.number().int() });
export type TierAdminView = z.infer<typeof TierAdminView>;

export const TiersResponse = z.object({ tiers: z.array(TierAdminView) });
export type TiersResponse = z.infer<typeof TiersResponse>;

export const TierInput = z
  .object({
    code: z
      .string()
      .max(30, { message: '會員等級代碼格式不正確', abort: true })
      .regex(/^[a-z0-9-]{1,30}$/, '會員等級代碼格式不正確'),
    name: z
      .string({ error: '請填寫等級名稱' })
      .trim()
      .min(1, '請填寫等級名稱')
      .max(10, '等級名稱最多 10 個字'),
    threshold: whole('門檻必須是整數（新臺幣元）').min(0, '門檻不能是負數').max(100_000_000, '門檻太大了'),
    discountPercent: whole('折扣必須是 0 到 30 的整數')
      .min(0, '折扣必須是 0 到 30 的整數')
      .max(30, '折扣必須是 0 到 30 的整數'),
    freeShippingOver: whole('免運門檻必須是整數（新臺幣元）')
      .min(1, '免運門檻必須是正整數；沿用全店規則請留空')
      .max(10_000_000, '免運門檻太大了')
      .nullable(),
  })
  .strict();
export type TierInput = z.infer<typeof TierInput>;

/** Every tier at once, in order (lowest first): the order is the tiers' sort order. */
export const UpdateTiersBody = z
  .object({
    tiers: z
      .array(TierInput, { error: '請提供會員等級' })
      .min(1, '至少要有一個會員等級')
      .max(10, '會員等級最多 10 個'),
  })
  .strict()
  .superRefine((v, ctx) => {
    const first = v.tiers[0];
    if (first && first.threshold !== 0)
      ctx.addIssue({
        code: 'custom',
        path: ['tiers', 0, 'threshold'],
        message: '最低的等級門檻必須是 0，讓每位會員都有等級',
      });
    for (let i = 1; i < v.tiers.length; i++) {
      if (v.tiers[i]!.threshold <= v.tiers[i - 1]!.threshold)
        ctx.addIssue({
          code: 'custom',
          path: ['tiers', i, 'threshold'],
          message: `門檻必須高於上一個等級（${formatTwd(v.tiers[i - 1]!.threshold)}）`,
        });
    }
    const names = new Set<string>();
    v.tiers.forEach((t, i) => {
      if (names.has(t.name))
        ctx.addIssue({ code: 'custom', path: ['tiers', i, 'name'], message: '等級名稱不能重複' });
      names.add(t.name);
    });
    if (new Set(v.tiers.map((t) => t.code)).size !== v.tiers.length)
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: '會員等級重複了' });
  });
export type UpdateTiersBody = z.infer<typeof UpdateTiersBody>;
