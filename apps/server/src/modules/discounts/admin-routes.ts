import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf } from '@shop/shared/admin';
import {
  CouponBody,
  CouponDetail,
  CouponIdParams,
  CouponListQuery,
  CouponOptions,
  CouponRow,
} from '@shop/shared/admin-coupons';
import type { Tx } from '../../db/client.ts';
import { recordAudit } from '../../plugins/audit.ts';
import {
  couponDetail,
  couponOptions,
  couponSnapshot,
  createCoupon,
  listCoupons,
  setCouponStatus,
  updateCoupon,
} from './admin-service.ts';

/**
 * Console API: coupons (the tiers' routes, under the same permissions, are membership's). Every
 * console role reads them; only the owner writes (coupons.write), and every write leaves an audit
 * row with the data before and after.
 */
const couponsRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/coupons',
    {
      config: { permission: 'coupons.read' },
      schema: { querystring: CouponListQuery, response: { 200: pageOf(CouponRow) } },
    },
    async (request) => listCoupons(app.db, request.query),
  );

  // Static before the parameter: Fastify's router prefers it, so 'options' is never taken for an id.
  r.get(
    '/api/admin/coupons/options',
    { config: { permission: 'coupons.read' }, schema: { response: { 200: CouponOptions } } },
    async () => couponOptions(app.db),
  );

  r.get(
    '/api/admin/coupons/:couponId',
    {
      config: { permission: 'coupons.read' },
      schema: { params: CouponIdParams, response: { 200: CouponDetail } },
    },
    async (request) => couponDetail(app.db, request.params.couponId),
  );

  r.post(
    '/api/admin/coupons',
    {
      config: { permission: 'coupons.write' },
      schema: { body: CouponBody, response: { 201: CouponDetail } },
    },
    async (request, reply) => {
      const id = await app.db.transaction(async (tx) => {
        const created = await createCoupon(tx, request.body);
        await recordAudit(tx, request, {
          action: 'coupon.create',
          entity: 'coupon',
          entityId: created.id,
          after: couponSnapshot(created),
        });
        return created.id;
      });
      return reply.code(201).send(await couponDetail(app.db, id));
    },
  );

  r.put(
    '/api/admin/coupons/:couponId',
    {
      config: { permission: 'coupons.write' },
      schema: { params: CouponIdParams, body: CouponBody, response: { 200: CouponDetail } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const { before, after } = await updateCoupon(tx, request.params.couponId, request.body);
        await recordAudit(tx, request, {
          action: 'coupon.update',
          entity: 'coupon',
          entityId: after.id,
          before: couponSnapshot(before),
          after: couponSnapshot(after),
        });
      });
      return couponDetail(app.db, request.params.couponId);
    },
  );

  const setStatus =
    (status: 'active' | 'paused') => async (request: FastifyRequest<{ Params: { couponId: string } }>) => {
      await app.db.transaction(async (tx: Tx) => {
        const { before, after } = await setCouponStatus(tx, request.params.couponId, status);
        await recordAudit(tx, request, {
          action: status === 'paused' ? 'coupon.pause' : 'coupon.resume',
          entity: 'coupon',
          entityId: after.id,
          before: { code: before.code, status: before.status },
          after: { code: after.code, status: after.status },
        });
      });
      return couponDetail(app.db, request.params.couponId);
    };
  r.post(
    '/api/admin/coupons/:couponId/pause',
    {
      config: { permission: 'coupons.write' },
      schema: { params: CouponIdParams, response: { 200: CouponDetail } },
    },
    setStatus('paused'),
  );
  r.post(
    '/api/admin/coupons/:couponId/resume',
    {
      config: { permission: 'coupons.write' },
      schema: { params: CouponIdParams, response: { 200: CouponDetail } },
    },
    setStatus('active'),
  );
};

export default couponsRoutes;
