import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { signIn } from './helpers.ts';

export const ORIGIN = 'http://localhost:3000';

/** A signed-in shopper driving the API the way the pages do. */
export async function shopper(app: FastifyInstance, email: string) {
  const { cookie, uid } = await signIn(app, email);
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { cookie, origin: ORIGIN }, ...(payload !== undefined ? { payload: payload as object } : {}) });
  return {
    cookie,
    uid,
    call,
    add: (variantId: string, quantity = 1) => call('POST', '/api/cart/items', { variantId, quantity }),
    order: (overrides: Record<string, unknown> = {}) =>
      call('POST', '/api/orders', {
        idempotencyKey: randomUUID(),
        shipping: { method: 'home', recipientName: '林小嵐', phone: '0912345678', city: '南投縣', district: '鹿谷鄉', address: '興產路 87 號' },
        invoice: { type: 'member' },
        paymentMethod: 'cod',
        ...overrides,
      }),
  };
}
