import { OrderNoParams } from '@shop/shared/orders';
import type { FastifyPluginAsync } from 'fastify';
import { ownFetch } from '../../../lib/form-post.ts';
import { AppError } from '../../../lib/errors.ts';
import { orderDeps } from '../../orders/deps.ts';
import { cancelLinePay, confirmLinePay, startLinePay } from '../../orders/line-pay-payments.ts';
import { linePayClient, type LinePayClient } from './client.ts';

/** The configured channel's client (the built-in sandbox's through the app itself). */
export function appLinePayClient(app: Parameters<FastifyPluginAsync>[0]): LinePayClient | undefined {
  const settings = app.config.linePay;
  return settings ? linePayClient(settings, ownFetch(app, app.config.publicUrl)) : undefined;
}

/**
 * The browser's three stops around LINE Pay's page: leaving (the form checkout posts; the shop
 * requests the payment and redirects to LINE), coming back to confirmUrl (the shop confirms) and to
 * cancelUrl. Every stop ends on /payComplete, which reads the outcome from the server.
 */
const linePayRoutes: FastifyPluginAsync<{ client: LinePayClient }> = async (app, { client }) => {
  // The payments module's scope already takes form posts (acceptForms).
  const deps = () => ({ ...orderDeps(app), linePay: client });
  const noStore = { 'cache-control': 'no-store' };

  app.post('/api/payments/linepay/start', async (request, reply) => {
    const asked = OrderNoParams.shape.orderNo.safeParse(
      (request.body as Record<string, unknown> | null)?.order,
    );
    // Not an order number: the result page, naming none (nothing changes).
    if (!asked.success) return reply.headers(noStore).redirect('/payComplete', 303);
    const orderNo = asked.data;
    if (!request.auth)
      return reply.headers(noStore).redirect(`/payComplete?order=${encodeURIComponent(orderNo)}`, 303);
    try {
      const step = await startLinePay(deps(), request.auth.user.id, orderNo);
      return reply.headers(noStore).redirect(step.redirect, 303);
    } catch (error) {
      // Not payable (paid a moment ago, expired, someone else's): the result page says where it stands.
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return reply.headers(noStore).redirect(`/payComplete?order=${encodeURIComponent(orderNo)}`, 303);
    }
  });

  app.get('/api/payments/linepay/confirm', async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const transactionId = typeof q.transactionId === 'string' ? q.transactionId : '';
    const orderId = typeof q.orderId === 'string' ? q.orderId : '';
    const step = await confirmLinePay(deps(), { transactionId, orderId });
    if (step.outcome === 'refused')
      request.log.warn(
        { orderId: orderId.slice(0, 40), transactionId: transactionId.slice(0, 24) },
        'LINE Pay return refused: unknown orderId and transactionId pair',
      );
    return reply.headers(noStore).redirect(step.redirect, 303);
  });

  app.get('/api/payments/linepay/cancel', async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const step = await cancelLinePay(
      deps(),
      request.auth?.user.id ?? null,
      typeof q.orderId === 'string' ? q.orderId : '',
    );
    return reply.headers(noStore).redirect(step.redirect, 303);
  });
};

export default linePayRoutes;
