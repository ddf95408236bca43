import { z } from 'zod';
import { PagingQuery, STAFF_ROLES } from './admin.ts';
import { AddressView, CouponView, TierView } from './membership.ts';
import { ORDER_STATUSES } from './order-status.ts';
import { PAYMENT_METHODS } from './payment-methods.ts';

/**
 * The console's members and staff accounts: list and detail shapes, the disable/enable bodies and
 * the staff role changes. The server validates with these; the pages reuse them.
 */

export const USER_ROLES = ['customer', ...STAFF_ROLES] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const USER_ROLE_NAMES: Readonly<Record<UserRole, string>> = {
  customer: '一般會員',
  owner: '店主',
  staff: '店員',
  viewer: '檢視者',
};

export const MEMBER_STATUSES = ['active', 'disabled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const MEMBER_STATUS_LABELS: Readonly<Record<MemberStatus, string>> = {
  active: '使用中',
  disabled: '已停用',
};

export const MemberListQuery = PagingQuery.extend({
  q: z.string().trim().max(100, '搜尋文字不能超過 100 個字元').optional(),
  tier: z
    .string()
    .max(30, { message: '會員等級格式不正確', abort: true })
    .regex(/^[a-z0-9-]{1,30}$/, '會員等級格式不正確')
    .optional(),
  status: z.enum(MEMBER_STATUSES, { message: '狀態只能是使用中或已停用' }).optional(),
}).strict();
export type MemberListQuery = z.infer<typeof MemberListQuery>;

export const MemberRow = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.enum(USER_ROLES),
  tierCode: z.string(),
  tierName: z.string(),
  /** Paid spending over the last 12 months (the same rule as the tiers). */
  spend: z.number().int(),
  orderCount: z.number().int(),
  joinedAt: z.string(),
  disabledAt: z.string().nullable(),
});
export type MemberRow = z.infer<typeof MemberRow>;

export const MemberIdParams = z.object({ memberId: z.uuid({ message: '會員編號格式不正確' }) }).strict();

export const MemberOrderRow = z.object({
  orderNo: z.string(),
  status: z.enum(ORDER_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  itemCount: z.number().int(),
  total: z.number().int(),
  createdAt: z.string(),
});
export type MemberOrderRow = z.infer<typeof MemberOrderRow>;

export const MemberDetail = z.object({
  profile: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    phone: z.string().nullable(),
    birthday: z.string().nullable(),
    role: z.enum(USER_ROLES),
    joinedAt: z.string(),
    disabledAt: z.string().nullable(),
    /** The reason given when the account was last disabled (from the audit trail). */
    disabledReason: z.string().nullable(),
  }),
  membership: z.object({
    tiers: z.array(TierView),
    current: TierView,
    next: TierView.nullable(),
    spend: z.number().int(),
    toNext: z.number().int(),
  }),
  addresses: z.array(AddressView),
  /** The latest orders, newest first (at most 10); `orderCount` counts them all. */
  orders: z.array(MemberOrderRow),
  orderCount: z.number().int(),
  /** Coupons the member holds: listed ones and their own (e.g. the birthday coupon). */
  coupons: z.array(CouponView),
});
export type MemberDetail = z.infer<typeof MemberDetail>;

const reason = z.string({ error: '請填寫原因' }).trim().max(200, '原因不能超過 200 個字元');

export const DisableMemberBody = z.object({ reason: reason.min(1, '請填寫停用原因') }).strict();
export type DisableMemberBody = z.infer<typeof DisableMemberBody>;

export const EnableMemberBody = z.object({ reason: reason.default('') }).strict();
export type EnableMemberBody = z.infer<typeof EnableMemberBody>;

export const MemberStatusResponse = z.object({
  id: z.string(),
  disabledAt: z.string().nullable(),
  revokedSessions: z.number().int(),
});
export type MemberStatusResponse = z.infer<typeof MemberStatusResponse>;

// ── staff accounts ──────────────────────────────────────────────────────────────────────────────

export const StaffRow = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(STAFF_ROLES),
  /** An invite not yet accepted (邀請中): the role it grants and until when its link works. */
  pendingInvite: z.object({ role: z.enum(STAFF_ROLES), expiresAt: z.string() }).nullable(),
  disabledAt: z.string().nullable(),
  /** False until the invited person has set a password with the one-time link. */
  passwordSet: z.boolean(),
  /** When the account last signed in (its newest session), if ever. */
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type StaffRow = z.infer<typeof StaffRow>;

export const StaffListResponse = z.object({ items: z.array(StaffRow) });
export type StaffListResponse = z.infer<typeof StaffListResponse>;

export const StaffIdParams = z.object({ userId: z.uuid({ message: '帳號編號格式不正確' }) }).strict();

export const UpdateStaffRoleBody = z
  .object({ role: z.enum(STAFF_ROLES, { message: '角色必須是店主、店員或檢視者' }) })
  .strict();
export type UpdateStaffRoleBody = z.infer<typeof UpdateStaffRoleBody>;

export const RevokeStaffResponse = z.object({
  id: z.string(),
  role: z.literal('customer'),
  revokedSessions: z.number().int(),
});
export type RevokeStaffResponse = z.infer<typeof RevokeStaffResponse>;
