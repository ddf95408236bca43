import type { Tx } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/password.ts';

/** The demo console accounts of README: one per role. */
export const DEMO_STAFF = [
  {
    email: 'owner@shanlan-tea.example',
    password: '山嵐茶事-owner-2026',
    displayName: '陳以安',
    role: 'owner',
  },
  {
    email: 'staff@shanlan-tea.example',
    password: '山嵐茶事-staff-2026',
    displayName: '王冠廷',
    role: 'staff',
  },
  {
    email: 'viewer@shanlan-tea.example',
    password: '山嵐茶事-viewer-2026',
    displayName: '劉靜宜',
    role: 'viewer',
  },
] as const;

export async function seedStaff(tx: Tx): Promise<string> {
  for (const s of DEMO_STAFF) {
    await tx.insert(users).values({
      email: s.email,
      displayName: s.displayName,
      passwordHash: await hashPassword(s.password),
      emailVerifiedAt: new Date(),
      role: s.role,
    });
  }
  return `${DEMO_STAFF.length} 個管理後台帳號（店主、店員、檢視者）`;
}
