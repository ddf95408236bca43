import { z } from 'zod';
import { CVS_BRANDS, PHONE_INPUT_MAX, TW_MOBILE, recipientNameField } from './checkout.ts';
import { findDistrict } from './data/tw-districts.ts';
import { textField } from './validation/zod.ts';

export const TierView = z.object({
  code: z.string(),
  name: z.string(),
  threshold: z.number().int(),
  discountPercent: z.number().int(),
  freeShippingOver: z.number().int().nullable(),
});
export type TierView = z.infer<typeof TierView>;

export const CouponView = z.object({
  code: z.string(),
  name: z.string(),
  /** Plain zh-TW conditions, e.g. 「滿 NT$1,500 折 NT$200，限金卡會員」. */
  description: z.string(),
  endsAt: z.string(),
  startsAt: z.string(),
  state: z.enum(['usable', 'used', 'expired', 'not-yet', 'not-for-tier']),
  personal: z.boolean(),
});
export type CouponView = z.infer<typeof CouponView>;

export const MembershipResponse = z.object({
  tiers: z.array(TierView),
  current: TierView,
  next: TierView.nullable(),
  /** Paid spending over the last 12 months. */
  spend: z.number().int(),
  /** Still to spend for the next tier; 0 at the top. */
  toNext: z.number().int(),
  coupons: z.array(CouponView),
});
export type MembershipResponse = z.infer<typeof MembershipResponse>;

export const Profile = z.object({
  displayName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  birthday: z.string().nullable(),
  pendingEmail: z.string().nullable(),
});
export type Profile = z.infer<typeof Profile>;

/** The member's say over marketing mail (new teas, offers, the abandoned-cart reminder); off until they agree. */
export const MarketingConsent = z.object({
  granted: z.boolean(),
  /** When the current choice was made; null while the member never chose. */
  at: z.string().nullable(),
});
export type MarketingConsent = z.infer<typeof MarketingConsent>;

/** PUT /api/me/marketing-consent: the member area's switch. */
export const SetMarketingConsentBody = z
  .object({ granted: z.boolean({ error: '請選擇是否要收到新品與優惠通知' }) })
  .strict();
export type SetMarketingConsentBody = z.infer<typeof SetMarketingConsentBody>;

const optionalMobile = z
  .string()
  .trim()
  .max(PHONE_INPUT_MAX, { message: '手機號碼格式不正確，請輸入 09 開頭的 10 位數字', abort: true })
  .transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => v === '' || TW_MOBILE.test(v), '手機號碼格式不正確，請輸入 09 開頭的 10 位數字');

const optionalBirthday = z
  .string()
  .trim()
  .max(10, { message: '請輸入正確的生日', abort: true })
  .refine((v) => {
    if (v === '') return true;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
    const d = new Date(`${v}T00:00:00Z`);
    return (
      !Number.isNaN(d.getTime()) &&
      d.toISOString().slice(0, 10) === v &&
      d.getUTCFullYear() >= 1900 &&
      d.getTime() <= Date.now()
    );
  }, '請輸入正確的生日');

export const UpdateProfileBody = z
  .object({
    displayName: textField('會員名稱', 'required|max:30'),
    phone: optionalMobile,
    birthday: optionalBirthday,
  })
  .strict();
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ChangeEmailBody = z
  .object({
    newEmail: textField('新的電子郵件', 'required|email|max:254'),
    password: textField('目前的密碼', 'required|max:128', { raw: true }),
  })
  .strict();
export type ChangeEmailBody = z.infer<typeof ChangeEmailBody>;

export const AddressBody = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('home'),
      label: z.string().trim().max(20, '名稱不能超過 20 個字元').default(''),
      recipientName: recipientNameField('home'),
      phone: optionalMobile.refine((v) => v !== '', '手機號碼為必填欄位'),
      city: textField('縣市', 'required|max:10'),
      district: textField('鄉鎮市區', 'required|max:10'),
      address: textField('地址', 'required|min:4|max:120'),
      isDefault: z.boolean().default(false),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (!findDistrict(v.city, v.district))
        ctx.addIssue({ code: 'custom', path: ['district'], message: '請選擇正確的鄉鎮市區' });
    }),
  z
    .object({
      kind: z.literal('cvs'),
      label: z.string().trim().max(20, '名稱不能超過 20 個字元').default(''),
      recipientName: recipientNameField('cvs'),
      phone: optionalMobile.refine((v) => v !== '', '手機號碼為必填欄位'),
      cvsBrand: z.enum(CVS_BRANDS, { message: '請選擇超商' }),
      storeId: z.string().trim().min(1, '請選擇取貨門市').max(20),
      isDefault: z.boolean().default(false),
    })
    .strict(),
]);
export type AddressBody = z.infer<typeof AddressBody>;

export const AddressView = z.object({
  id: z.string(),
  kind: z.enum(['home', 'cvs']),
  label: z.string(),
  recipientName: z.string(),
  phone: z.string(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  postalCode: z.string().nullable(),
  address: z.string().nullable(),
  cvsBrand: z.enum(CVS_BRANDS).nullable(),
  storeId: z.string().nullable(),
  storeName: z.string().nullable(),
  storeAddress: z.string().nullable(),
  isDefault: z.boolean(),
});
export type AddressView = z.infer<typeof AddressView>;
export const AddressListResponse = z.object({ addresses: z.array(AddressView) });

/** Percentages become whole TWD by rounding half up (四捨五入): 5% of NT$1,230 is NT$62. */
export function percentOf(amount: number, percent: number): number {
  return Math.round((amount * percent) / 100);
}
