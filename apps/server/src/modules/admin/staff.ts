import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CreateStaffBody, CreateStaffResponse } from '@shop/shared/admin';
import { RevokeStaffResponse, StaffIdParams, StaffListResponse, StaffRow, UpdateStaffRoleBody } from '@shop/shared/admin-members';
import { recordAudit } from './audit.ts';
import { changeStaffRole, inviteStaff, listStaff, revokeStaff } from './staff-service.ts';

/**
 * The owner's console accounts: the list, inviting an address (a one-time set-password link; also
 * `npm run admin:create`), changing a role and revoking access. The last owner who can sign in
 * keeps the role, and nobody changes their own.
 */
const staff: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/admin/staff', { config: { permission: 'staff.write' }, schema: { response: { 200: StaffListResponse } } }, async () => ({ items: await listStaff(app.db) }));

  r.post('/api/admin/staff', { config: { permission: 'staff.write' }, schema: { body: CreateStaffBody, response: { 200: CreateStaffResponse } } }, async (request) =>
    app.db.transaction(async (tx) => {
      const { previousRole, ...invite } = await inviteStaff(tx, app.config.publicUrl, request.body, new Date(), request.staff);
      await recordAudit(tx, request, {
        action: invite.created ? 'staff.create' : 'staff.role',
        entity: 'user',
        entityId: invite.uid,
        before: invite.created ? null : { email: invite.email, role: previousRole },
        after: { email: invite.email, role: invite.role },
      });
      return invite;
    }),
  );

  r.patch(
    '/api/admin/staff/:userId',
    { config: { permission: 'staff.write' }, schema: { params: StaffIdParams, body: UpdateStaffRoleBody, response: { 200: StaffRow } } },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const change = await changeStaffRole(tx, request.staff!, request.params.userId, request.body.role);
        if (change.before.role !== change.after.role) {
          await recordAudit(tx, request, { action: 'staff.role', entity: 'user', entityId: change.id, before: { email: change.email, ...change.before }, after: { email: change.email, ...change.after } });
        }
      });
      const row = (await listStaff(app.db)).find((s) => s.id === request.params.userId);
      if (!row) throw new Error('staff account vanished');
      return row;
    },
  );

  r.post(
    '/api/admin/staff/:userId/revoke',
    { config: { permission: 'staff.write' }, schema: { params: StaffIdParams, response: { 200: RevokeStaffResponse } } },
    async (request) =>
      app.db.transaction(async (tx) => {
        const change = await revokeStaff(tx, request.staff!, request.params.userId);
        await recordAudit(tx, request, {
          action: 'staff.revoke',
          entity: 'user',
          entityId: change.id,
          before: { email: change.email, ...change.before },
          after: { email: change.email, ...change.after, revokedSessions: change.revokedSessions },
        });
        return { id: change.id, role: 'customer' as const, revokedSessions: change.revokedSessions };
      }),
  );
};

export default staff;
