import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { MaintenanceStatus } from '@shop/shared/site';
import { matchRoute } from '@shop/shared/routes';
import { TOKEN_COOKIE } from '@shop/shared/session';
import { AppError } from '../../lib/errors.ts';
import { isApiPath, routedPath } from '../../lib/routed-path.ts';
import { readMaintenance } from './maintenance.ts';
import { resolveSession } from '../auth/session-service.ts';

/** APIs that keep working during maintenance: health, status, sign-in, staff, payment callbacks, files. */
const ALWAYS_OPEN = ['/api/health', '/api/site/', '/api/auth/', '/api/admin/', '/api/test/', '/api/dev/', '/api/payments/', '/api/storage/'];
const STAFF = new Set(['owner', 'staff', 'viewer']);

declare module 'fastify' {
  interface FastifyInstance {
    maintenanceStatus(): Promise<MaintenanceStatus>;
    maintenanceChanged(): void;
  }
}

/**
 * Maintenance mode (MAINTENANCE_MODE or the database flag): shoppers' pages go to /maintenance and
 * their API calls get 503 with Retry-After; staff sessions keep working.
 */
export default fp(
  async (app) => {
    let cached: { at: number; status: MaintenanceStatus } | null = null;
    const status = async () => {
      if (cached && Date.now() - cached.at < 2_000) return cached.status;
      cached = { at: Date.now(), status: await readMaintenance(app.db, app.config.maintenanceMode) };
      return cached.status;
    };
    app.decorate('maintenanceStatus', status);
    app.decorate('maintenanceChanged', () => {
      cached = null;
    });

    const isStaff = (request: FastifyRequest) => STAFF.has(request.auth?.user.role ?? 'customer');

    app.addHook('onRequest', async (request, reply) => {
      // The routed path, so `/%61pi/cart` is closed like `/api/cart`.
      const path = routedPath(request);
      if (isApiPath(path)) {
        if (ALWAYS_OPEN.some((p) => path.startsWith(p))) return;
        const s = await status();
        if (!s.enabled || isStaff(request)) return;
        const retry = s.endsAt ? Math.max(60, Math.ceil((Date.parse(s.endsAt) - Date.now()) / 1000)) : 3600;
        throw new AppError(503, 'maintenance', s.message, undefined, { 'retry-after': String(retry) });
      }
      if (request.method !== 'GET' || path === '/maintenance' || !matchRoute(path)) return;
      const s = await status();
      if (!s.enabled) return;
      // The session plugin resolves sessions for /api only; a page visit needs its own look-up.
      const token = request.cookies[TOKEN_COOKIE];
      const auth = request.auth ?? (token ? await resolveSession(app.db, token) : null);
      if (STAFF.has(auth?.user.role ?? 'customer')) return;
      return reply.redirect('/maintenance', 302);
    });
  },
  { name: 'maintenance', dependencies: ['db', 'session', 'config'] },
);
