import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { can } from '@shop/shared/admin';
import { AdminOrderDetail } from '@shop/shared/admin-orders';
import { bankLabel, TW_BANKS } from '@shop/shared/data/tw-banks';
import {
  AdminReturnsQuery,
  AdminReturnsResponse,
  ReceiveReturnBody,
  RefundIdParams,
  RefuseReturnBody,
  ReturnDecisionBody,
  ReturnNoParams,
  TransferDoneBody,
  TransferTasksResponse,
} from '@shop/shared/returns';
import { ConflictError } from '../../lib/errors.ts';
import { recordAudit } from '../../plugins/audit.ts';
import { markTransferDone, transferTasks } from '../payments/refunds.ts';
import { getAdminOrder } from './admin-service.ts';
import { orderDeps } from './deps.ts';
import * as returns from './returns.ts';
import { consoleReturns } from './returns-views.ts';
import { announceOrder } from './lifecycle.ts';
import { refundDoneMail } from './payment-results.ts';

/**
 * Returns and money going back, in the console: the list of returns, staff's decision, the goods'
 * arrival (with the stock choice and the refund), and the transfers staff make for ATM and
 * cash-on-delivery refunds. Reads need `orders.read`, changes `orders.write`; each change writes
 * its audit row in its own transaction.
 */
const returnRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const detail = (orderNo: string, role: string | undefined) =>
    getAdminOrder(app.db, orderNo, { withOperations: can(role, 'audit.read') });

  r.get(
    '/api/admin/returns',
    {
      config: { permission: 'orders.read' },
      schema: { querystring: AdminReturnsQuery, response: { 200: AdminReturnsResponse } },
    },
    async (request) => {
      return consoleReturns(app.db, request.query.status, request.query.page);
    },
  );

  const audit =
    (
      request: Parameters<typeof recordAudit>[1],
      action: string,
      returnNo: string,
      after: Record<string, unknown>,
    ) =>
    (tx: Parameters<typeof recordAudit>[0]) =>
      recordAudit(tx, request, { action, entity: 'return', entityId: returnNo, after });

  r.post(
    '/api/admin/returns/:returnNo/approve',
    {
      config: { permission: 'orders.write' },
      schema: { params: ReturnNoParams, body: ReturnDecisionBody, response: { 200: AdminOrderDetail } },
    },
    async (request) => {
      const { returnNo } = request.params;
      const orderNo = await returns.decideReturn(
        orderDeps(app),
        returnNo,
        { approve: true, message: request.body.message },
        request.staff?.id ?? null,
        audit(request, 'return.approve', returnNo, { message: request.body.message }),
      );
      return detail(orderNo, request.staff?.role);
    },
  );

  r.post(
    '/api/admin/returns/:returnNo/refuse',
    {
      config: { permission: 'orders.write' },
      schema: { params: ReturnNoParams, body: RefuseReturnBody, response: { 200: AdminOrderDetail } },
    },
    async (request) => {
      const { returnNo } = request.params;
      const orderNo = await returns.decideReturn(
        orderDeps(app),
        returnNo,
        { approve: false, message: request.body.message },
        request.staff?.id ?? null,
        audit(request, 'return.refuse', returnNo, { message: request.body.message }),
      );
      return detail(orderNo, request.staff?.role);
    },
  );

  r.post(
    '/api/admin/returns/:returnNo/receive',
    {
      config: { permission: 'orders.write' },
      schema: { params: ReturnNoParams, body: ReceiveReturnBody, response: { 200: AdminOrderDetail } },
    },
    async (request) => {
      const { returnNo } = request.params;
      const orderNo = await returns.receiveReturn(
        orderDeps(app),
        returnNo,
        request.body.items,
        request.staff?.id ?? null,
        audit(request, 'return.receive', returnNo, { items: request.body.items }),
      );
      return detail(orderNo, request.staff?.role);
    },
  );

  /**
   * The transfers to make. The whole account number only for those who make them (orders.write);
   * a read-only role sees its last four digits, as a member's own page shows it.
   */
  const tasks = async (role: string | undefined) => {
    const whole = can(role, 'orders.write');
    return {
      items: (await transferTasks(app.db)).map((t) => ({
        id: t.refund.id,
        orderNo: t.orderNo,
        memberName: t.memberName,
        amount: t.refund.amount,
        reason: t.refund.reason,
        bank: t.refund.bank
          ? {
              ...t.refund.bank,
              account: whole ? t.refund.bank.account : `••••${t.refund.bank.account.slice(-4)}`,
              bankName: TW_BANKS[t.refund.bank.bankCode] ?? bankLabel(t.refund.bank.bankCode),
            }
          : null,
        createdAt: t.refund.createdAt.toISOString(),
      })),
    };
  };

  r.get(
    '/api/admin/refunds/transfers',
    { config: { permission: 'orders.read' }, schema: { response: { 200: TransferTasksResponse } } },
    async (request) => tasks(request.staff?.role),
  );

  r.post(
    '/api/admin/refunds/:id/done',
    {
      config: { permission: 'orders.write' },
      schema: { params: RefundIdParams, body: TransferDoneBody, response: { 200: TransferTasksResponse } },
    },
    async (request) => {
      const done = await markTransferDone(
        {
          db: app.db,
          mailer: app.mailer,
          doneMail: (db, orderId, amount) => refundDoneMail(db, orderId, amount, app.config.publicUrl),
        },
        request.params.id,
        request.body.note,
        (tx, refund) =>
          recordAudit(tx, request, {
            action: 'refund.transfer-done',
            entity: 'refund',
            entityId: refund.id,
            after: { amount: refund.amount, note: request.body.note },
          }),
      );
      if (!done)
        throw new ConflictError('這筆退款不是等待轉帳的退款，或會員尚未提供帳戶。', 'invalid-transition');
      await announceOrder(orderDeps(app), done.orderId);
      return tasks(request.staff?.role);
    },
  );
};

export default returnRoutes;
