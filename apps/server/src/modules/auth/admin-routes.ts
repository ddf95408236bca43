import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminMe,
  CreateStaffBody,
  CreateStaffResponse,
  PERMISSIONS,
  ROLE_NAMES,
  can,
} from '@shop/shared/admin';
import {
  RevokeStaffResponse,
  StaffIdParams,
  StaffListResponse,
  StaffRow,
  UpdateStaffRoleBody,
} from '@shop/shared/admin-members';
import { staffInviteMail } from './mails.ts';
import { NoDataError, UnauthenticatedError } from '../../lib/errors.ts';
import { recordAudit } from '../../plugins/audit.ts';
import { changeStaffRole, inviteStaff, listStaff, revokeStaff } from './staff-service.ts';

/**
 * Console accounts. Who is signed in to the console (GET /api/admin/me: their role and what it may
 * do), and the owner's staff accounts: the list, inviting an address (a mailed one-time link; the role is
 * granted only when it is accepted; also `npm run admin:create`), changing a role and revoking
 * access or a pending invite. The last owner who can sign in keeps the role, and nobody changes
 * their own.
 */
const consoleAccountRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/me',
    { config: { permission: 'dashboard.read' }, schema: { response: { 200: AdminMe } } },
    async (request) => {
      const staff = request.staff!;
      const user = request.auth?.user;
      if (!user) throw new UnauthenticatedError('請先以管理員帳號登入。');
      return {
        uid: user.id,
        email: user.email,
        displayName: user.displayName,
        role: staff.role,
        permissions: PERMISSIONS.filter((p) => can(staff.role, p)),
      };
    },
  );

  r.get(
    '/api/admin/staff',
    { config: { permission: 'staff.write' }, schema: { response: { 200: StaffListResponse } } },
    async () => ({ items: await listStaff(app.db) }),
  );

  r.post(
    '/api/admin/staff',
    {
      config: { permission: 'staff.write' },
      schema: { body: CreateStaffBody, response: { 200: CreateStaffResponse } },
    },
    async (request) => {
      const invite = await app.db.transaction(async (tx) => {
        const { previousRole, ...made } = await inviteStaff(
          tx,
          app.config.publicUrl,
          request.body,
          new Date(),
          request.staff,
        );
        await recordAudit(tx, request, {
          action: made.created ? 'staff.create' : 'staff.invite',
          entity: 'user',
          entityId: made.uid,
          before: made.created ? null : { email: made.email, role: previousRole },
          after: { email: made.email, role: made.role, pending: true },
        });
        // Mailed once the invite is committed (the outbox): opening it proves the mailbox, which is what grants the role.
        await app.mailer.enqueue(
          tx,
          staffInviteMail(
            made.email,
            made.displayName,
            ROLE_NAMES[made.role],
            made.setPasswordUrl,
            new Date(made.expiresAt),
          ),
        );
        return made;
      });
      app.mailer.flush();
      // Only the command line (someone at the server) also gets the link; the console never shows it.
      const fromCommandLine = request.staff?.id === null;
      return {
        uid: invite.uid,
        email: invite.email,
        role: invite.role,
        created: invite.created,
        expiresAt: invite.expiresAt,
        setPasswordUrl: fromCommandLine ? invite.setPasswordUrl : null,
      };
    },
  );

  r.patch(
    '/api/admin/staff/:userId',
    {
      config: { permission: 'staff.write' },
      schema: { params: StaffIdParams, body: UpdateStaffRoleBody, response: { 200: StaffRow } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const change = await changeStaffRole(tx, request.staff!, request.params.userId, request.body.role);
        if (change.before.role !== change.after.role) {
          await recordAudit(tx, request, {
            action: 'staff.role',
            entity: 'user',
            entityId: change.id,
            before: { email: change.email, ...change.before },
            after: { email: change.email, ...change.after },
          });
        }
      });
      // Committed: a new role counts from the member's next request on every instance.
      await app.sessionsEnded(request.params.userId);
      const row = (await listStaff(app.db)).find((s) => s.id === request.params.userId);
      if (!row) throw new NoDataError('這個管理員帳號在儲存後已被移除，請重新整理後再試。');
      return row;
    },
  );

  r.post(
    '/api/admin/staff/:userId/revoke',
    {
      config: { permission: 'staff.write' },
      schema: { params: StaffIdParams, response: { 200: RevokeStaffResponse } },
    },
    async (request) =>
      app.db
        .transaction(async (tx) => {
          const change = await revokeStaff(tx, request.staff!, request.params.userId);
          await recordAudit(tx, request, {
            action: 'staff.revoke',
            entity: 'user',
            entityId: change.id,
            before: {
              email: change.email,
              ...change.before,
              ...(change.invitedRole ? { invitedRole: change.invitedRole } : {}),
            },
            after: { email: change.email, ...change.after, revokedSessions: change.revokedSessions },
          });
          return { id: change.id, role: 'customer' as const, revokedSessions: change.revokedSessions };
        })
        .then(async (result) => {
          // Committed: the account's open pages stop receiving updates at once.
          await app.sessionsEnded(result.id);
          return result;
        }),
  );
};

export default consoleAccountRoutes;
