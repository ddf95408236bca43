import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { MaintenanceStatus } from '@shop/shared/site';
import { BUILD_MANIFEST_PATH } from '@shop/shared/build-manifest-path';
import { matchRoute } from '@shop/shared/routes';
import { AppError } from '../../lib/errors.ts';
import { isApiPath, routedPath } from '../../lib/routed-path.ts';
import { EVERYONE } from '../../plugins/events.ts';
import { readMaintenance } from './maintenance.ts';
import {
  maintenanceNext,
  maintenancePage,
  maintenanceRetryAfter,
  stylesheetLinks,
} from './maintenance-page.ts';

/** APIs that keep working during maintenance: health, status, sign-in, staff, payment callbacks, files. */
const ALWAYS_OPEN = [
  '/api/health',
  '/api/site/',
  '/api/auth/',
  '/api/admin/',
  '/api/test/',
  '/api/dev/',
  '/api/payments/',
  '/api/storage/',
];
const STAFF = new Set(['owner', 'staff', 'viewer']);

declare module 'fastify' {
  interface FastifyInstance {
    maintenanceStatus(): Promise<MaintenanceStatus>;
    maintenanceChanged(): void;
  }
}

/**
 * Maintenance mode (MAINTENANCE_MODE or the database flag), docs/product-rules.md#maintenance-mode:
 * shoppers' API calls get 503 with Retry-After; their page requests (every shop page, /maintenance
 * included) get 503 with Retry-After and a plain maintenance page at the address they asked for;
 * the build manifest answers 503 too, so an open page learns at its next new-build check. Staff
 * sessions keep working.
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
    // A switch on any instance is announced to all (site/admin-routes.ts): drop the cached status,
    // so the pages that hear of it and come back find it. The events plugin registers after this one.
    let stopListening = () => {};
    app.addHook('onReady', async () => {
      stopListening = app.events.subscribe(EVERYONE, (event) => {
        if (event.type === 'site.maintenance') cached = null;
      });
    });
    app.addHook('onClose', async () => stopListening());

    // The built app's stylesheets carry the brand's colours for the maintenance page.
    const indexFile = path.join(app.config.webDist, 'index.html');
    const stylesheets = stylesheetLinks(fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null);

    const isStaff = (request: FastifyRequest) => STAFF.has(request.auth?.user.role ?? 'customer');

    app.addHook('onRequest', async (request, reply) => {
      // The routed path, so `/%61pi/cart` is closed like `/api/cart`.
      const path = routedPath(request);
      if (isApiPath(path)) {
        if (ALWAYS_OPEN.some((p) => path.startsWith(p))) return;
        const s = await status();
        if (!s.enabled || isStaff(request)) return;
        throw new AppError(503, 'maintenance', s.message, undefined, {
          'retry-after': String(maintenanceRetryAfter(s)),
        });
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const manifest = path === BUILD_MANIFEST_PATH;
      if (!manifest && !matchRoute(path)) return;
      const s = await status();
      if (!s.enabled) return;
      // The session plugin resolves sessions for /api only; a page visit needs its own look-up.
      const auth = await app.visitorOf(request);
      if (STAFF.has(auth?.user.role ?? 'customer')) return;
      const retryAfter = String(maintenanceRetryAfter(s));
      if (manifest)
        throw new AppError(503, 'maintenance', s.message, undefined, { 'retry-after': retryAfter });
      return reply
        .code(503)
        .header('retry-after', retryAfter)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          maintenancePage(
            s,
            stylesheets,
            path === '/maintenance'
              ? maintenanceNext((request.query as { next?: unknown }).next, (p) => matchRoute(p) !== null)
              : null,
          ),
        );
    });
  },
  { name: 'maintenance', dependencies: ['db', 'session', 'config'] },
);
