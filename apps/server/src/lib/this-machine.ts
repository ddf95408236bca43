import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Someone at this machine: the socket itself comes from loopback (never X-Forwarded-For, which the
 * sender writes), and no proxy header says a proxy on this machine relayed it from elsewhere.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  const relayed = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => request.headers[h] !== undefined);
  return loopback && !relayed;
}

/** Compares secrets in constant time. */
export function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The local command line (`npm run backup`, `admin:create`, …): the token the server wrote to
 * DATA_DIR, sent from this machine itself. A token that leaked (a copied data folder, a log) is
 * worth nothing from anywhere else.
 */
export function isLocalCli(request: FastifyRequest, token: string): boolean {
  const sent = request.headers['x-admin-cli-token'];
  return typeof sent === 'string' && sameSecret(sent, token) && fromThisMachine(request);
}
