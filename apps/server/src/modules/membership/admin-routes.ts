import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf } from '@shop/shared/admin';
import { TiersResponse, UpdateTiersBody } from '@shop/shared/admin-coupons';
import {
  DisableMemberBody,
  EnableMemberBody,
  MemberDetail,
  MemberIdParams,
  MemberListQuery,
  MemberRow,
  MemberStatusResponse,
} from '@shop/shared/admin-members';
import { recordAudit } from '../../plugins/audit.ts';
import { listMembers, listTiers, memberDetail, setMemberDisabled, updateTiers } from './admin-service.ts';

/**
 * Console API: members and membership tiers. The list and a member's page for every console role;
 * disabling and enabling accounts (with a reason, in the audit trail) for the owner and staff. The
 * tiers are read by every role and changed by the owner (with the coupons' permissions, as the
 * console's coupon page edits them).
 */
const membersRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/members',
    {
      config: { permission: 'members.read' },
      schema: { querystring: MemberListQuery, response: { 200: pageOf(MemberRow) } },
    },
    async (request) => listMembers(app.db, request.query),
  );

  r.get(
    '/api/admin/members/:memberId',
    {
      config: { permission: 'members.read' },
      schema: { params: MemberIdParams, response: { 200: MemberDetail } },
    },
    async (request) => memberDetail(app.db, request.params.memberId),
  );

  r.post(
    '/api/admin/members/:memberId/disable',
    {
      config: { permission: 'members.write' },
      schema: { params: MemberIdParams, body: DisableMemberBody, response: { 200: MemberStatusResponse } },
    },
    async (request) => {
      const result = await app.db.transaction(async (tx) => {
        const change = await setMemberDisabled(tx, request.staff!, request.params.memberId, true);
        await recordAudit(tx, request, {
          action: 'member.disable',
          entity: 'user',
          entityId: request.params.memberId,
          before: change.before,
          after: { ...change.after, reason: request.body.reason, revokedSessions: change.revokedSessions },
        });
        return {
          id: request.params.memberId,
          disabledAt: change.after.disabledAt,
          revokedSessions: change.revokedSessions,
        };
      });
      // Committed: the member's open pages stop receiving updates at once.
      await app.sessionsEnded(request.params.memberId);
      return result;
    },
  );

  r.post(
    '/api/admin/members/:memberId/enable',
    {
      config: { permission: 'members.write' },
      schema: {
        params: MemberIdParams,
        body: EnableMemberBody.nullish(),
        response: { 200: MemberStatusResponse },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const change = await setMemberDisabled(tx, request.staff!, request.params.memberId, false);
        await recordAudit(tx, request, {
          action: 'member.enable',
          entity: 'user',
          entityId: request.params.memberId,
          before: change.before,
          after: { ...change.after, reason: request.body?.reason ?? '' },
        });
        return { id: request.params.memberId, disabledAt: null, revokedSessions: 0 };
      }),
  );

  r.get(
    '/api/admin/tiers',
    { config: { permission: 'coupons.read' }, schema: { response: { 200: TiersResponse } } },
    async () => ({ tiers: await listTiers(app.db) }),
  );

  r.put(
    '/api/admin/tiers',
    {
      config: { permission: 'coupons.write' },
      schema: { body: UpdateTiersBody, response: { 200: TiersResponse } },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const { before, after, tiers } = await updateTiers(tx, request.body);
        await recordAudit(tx, request, {
          action: 'tiers.update',
          entity: 'tier',
          entityId: null,
          before: { tiers: before },
          after: { tiers: after },
        });
        return { tiers };
      }),
  );
};

export default membersRoutes;
