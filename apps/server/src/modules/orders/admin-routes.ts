import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { can, pageOf } from '@shop/shared/admin';
import {
  AdminOrderDetail,
  AdminOrderExportQuery,
  AdminOrderListQuery,
  AdminOrderRow,
  OrderActionBody,
  RecipientCorrectionBody,
} from '@shop/shared/admin-orders';
import { CSV_CONTENT_TYPE } from '@shop/shared/csv';
import { AdvanceOrderBody, OrderDetail, OrderNoParams } from '@shop/shared/orders';
import { orderDeps } from './deps.ts';
import { advanceOrder } from './lifecycle.ts';
import { recordAudit } from '../../plugins/audit.ts';
import {
  correctRecipient,
  exportAdminOrdersCsv,
  getAdminOrder,
  listAdminOrders,
  runOrderAction,
} from './admin-service.ts';
import { taipeiDay } from '@shop/shared/taipei-time';

/**
 * Orders and fulfilment: the list (and its CSV), one order's detail, and the actions that move an
 * order along the state machine. Reads need `orders.read`, actions `orders.write`.
 */
const orders: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/orders',
    {
      config: { permission: 'orders.read' },
      schema: { querystring: AdminOrderListQuery, response: { 200: pageOf(AdminOrderRow) } },
    },
    async (request) => listAdminOrders(app.db, request.query),
  );

  r.get(
    '/api/admin/orders/export.csv',
    { config: { permission: 'orders.read' }, schema: { querystring: AdminOrderExportQuery } },
    async (request, reply) => {
      const csv = await exportAdminOrdersCsv(app.db, request.query);
      return reply
        .header('content-type', CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="orders-${taipeiDay(new Date(), '')}.csv"`)
        .send(csv);
    },
  );

  r.get(
    '/api/admin/orders/:orderNo',
    {
      config: { permission: 'orders.read' },
      schema: { params: OrderNoParams, response: { 200: AdminOrderDetail } },
    },
    async (request) =>
      getAdminOrder(app.db, request.params.orderNo, {
        withOperations: can(request.staff?.role, 'audit.read'),
      }),
  );

  /**
   * One fulfilment action. Its audit row is written inside the order's transaction, with the
   * status before and after as locked there: the change and its row commit together or not at
   * all. The member's live update and mail follow the commit.
   */
  r.post(
    '/api/admin/orders/:orderNo/actions',
    {
      config: { permission: 'orders.write' },
      schema: { params: OrderNoParams, body: OrderActionBody, response: { 200: AdminOrderDetail } },
    },
    async (request) => {
      const { orderNo } = request.params;
      await runOrderAction(
        orderDeps(app),
        orderNo,
        request.body,
        (tx, result) =>
          recordAudit(tx, request, {
            action: `order.${request.body.action}`,
            entity: 'order',
            entityId: orderNo,
            before: { status: result.before },
            after: { status: result.after, ...result.details },
          }),
        request.staff?.id ?? null,
      );
      return getAdminOrder(app.db, orderNo, { withOperations: can(request.staff?.role, 'audit.read') });
    },
  );

  /** Correct the recipient (name, mobile) of an order not yet shipped; audited with the values before and after. */
  r.patch(
    '/api/admin/orders/:orderNo/recipient',
    {
      config: { permission: 'orders.write' },
      schema: { params: OrderNoParams, body: RecipientCorrectionBody, response: { 200: AdminOrderDetail } },
    },
    async (request) => {
      const { orderNo } = request.params;
      await correctRecipient(app.db, orderNo, request.body, (tx, change) =>
        recordAudit(tx, request, {
          action: 'order.recipient',
          entity: 'order',
          entityId: orderNo,
          before: change.before,
          after: change.after,
        }),
      );
      return getAdminOrder(app.db, orderNo, { withOperations: can(request.staff?.role, 'audit.read') });
    },
  );

  // Also used by `npm run order:advance` (the command line acts as the owner).
  r.post(
    '/api/admin/orders/:orderNo/advance',
    {
      config: { permission: 'orders.write' },
      schema: { params: OrderNoParams, body: AdvanceOrderBody, response: { 200: OrderDetail } },
    },
    async (request) =>
      advanceOrder(
        orderDeps(app),
        request.params.orderNo,
        request.body,
        (tx) =>
          recordAudit(tx, request, {
            action: 'order.advance',
            entity: 'order',
            entityId: request.params.orderNo,
            after: request.body,
          }),
        request.staff?.id ?? null,
      ),
  );
};

export default orders;
