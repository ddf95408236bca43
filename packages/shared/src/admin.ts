import { z } from 'zod';

/**
 * The operations console's roles and what each may do. The server checks every admin route
 * against this table; the console uses it to show only what a role can use.
 */
export const STAFF_ROLES = ['owner', 'staff', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const isStaffRole = (role: string | undefined | null): role is StaffRole =>
  STAFF_ROLES.includes(role as StaffRole);

export const ROLE_NAMES: Readonly<Record<StaffRole, string>> = {
  owner: '店主',
  staff: '店員',
  viewer: '檢視者',
};

export const PERMISSIONS = [
  'dashboard.read',
  'products.read',
  'products.write',
  'orders.read',
  'orders.write',
  'members.read',
  'members.write',
  'coupons.read',
  'coupons.write',
  'content.read',
  'content.write',
  'messages.read',
  'messages.write',
  'redirects.read',
  'redirects.write',
  'settings.read',
  'settings.write',
  'outbox.read',
  'outbox.write',
  'staff.write',
  'audit.read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READS = PERMISSIONS.filter((p) => p.endsWith('.read') && p !== 'audit.read');

/** An owner invites staff: the address gets a mailed one-time link; the role comes when it is accepted. */
export const CreateStaffBody = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, { message: '電子郵件不能超過 254 個字元', abort: true })
      .pipe(z.email({ message: '電子郵件格式不正確' })),
    role: z.enum(STAFF_ROLES, { message: '角色必須是 owner、staff 或 viewer' }),
    displayName: z.string().trim().min(1).max(30).optional(),
  })
  .strict();
/** `setPasswordUrl` only for the command line: the console's invite is mailed, never shown. */
export const CreateStaffResponse = z.object({
  uid: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  created: z.boolean(),
  setPasswordUrl: z.string().nullable(),
  expiresAt: z.string(),
});

/**
 * owner: everything, including staff accounts and the audit trail. staff: reads, plus orders, members and content
 * (with contact messages), and sending a failed mail again. viewer: reads only. Settings are shipping fees, tiers and maintenance.
 */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, ReadonlySet<Permission>>> = {
  owner: new Set(PERMISSIONS),
  staff: new Set<Permission>([
    ...READS,
    'orders.write',
    'members.write',
    'content.write',
    'messages.write',
    'outbox.write',
  ]),
  viewer: new Set<Permission>(READS),
};

export function can(role: string | undefined | null, permission: Permission): boolean {
  return isStaffRole(role) && ROLE_PERMISSIONS[role].has(permission);
}

/** Staff sessions end after this long without use (customers keep the 30-day sliding session). */
export const STAFF_IDLE_MS = 12 * 60 * 60 * 1000;

export const AdminMe = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(STAFF_ROLES),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type AdminMe = z.infer<typeof AdminMe>;

/** A page of rows from a server-paged admin table. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({
    items: z.array(row),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });
export interface PageOf<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/** Query-string paging shared by admin lists: `page` from 1, `pageSize` up to 100. */
export const PagingQuery = z.object({
  page: z.coerce
    .number({ message: '頁碼必須是整數' })
    .int('頁碼必須是整數')
    .min(1, '頁碼至少為 1')
    .max(10_000)
    .default(1),
  pageSize: z.coerce
    .number({ message: '每頁筆數必須是整數' })
    .int('每頁筆數必須是整數')
    .min(1)
    .max(100, '每頁最多 100 筆')
    .default(20),
});

export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  actorRole: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
