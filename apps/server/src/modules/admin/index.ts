import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdvanceOrderBody, OrderDetail, OrderNoParams } from '@shop/shared/orders';
import { ForbiddenError, UnauthenticatedError } from '../../lib/errors.ts';
import { orderDeps } from '../orders/deps.ts';
import { advanceOrder } from '../orders/service.ts';
import { SetMaintenanceBody, MaintenanceStatus } from '@shop/shared/site';
import { writeMaintenance } from '../site/maintenance.ts';

const STAFF_ROLES = new Set(['owner', 'staff']);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Staff APIs. Until the operations console exists, this moves orders along so tracking can be
 * shown: staff sessions (owner, staff) or the local command line (`npm run order:advance`, with the
 * token the server writes to DATA_DIR) may call it. Shoppers get 403, anonymous callers 401.
 */
const admin: FastifyPluginAsync<{ cliToken: string }> = async (app, options) => {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const cli = request.headers['x-admin-cli-token'];
    if (typeof cli === 'string' && sameSecret(cli, options.cliToken)) return;
    if (!request.auth) throw new UnauthenticatedError();
    if (!STAFF_ROLES.has(request.auth.user.role ?? 'customer')) throw new ForbiddenError();
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.withTypeProvider<ZodTypeProvider>().post('/api/admin/maintenance', { schema: { body: SetMaintenanceBody, response: { 200: MaintenanceStatus } } }, async (request) => {
    await writeMaintenance(app.db, request.body);
    app.maintenanceChanged();
    return app.maintenanceStatus();
  });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/orders/:orderNo/advance',
    { schema: { params: OrderNoParams, body: AdvanceOrderBody, response: { 200: OrderDetail } } },
    async (request) => advanceOrder(orderDeps(app), request.params.orderNo, request.body),
  );
};

export default admin;
