import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddressBody,
  AddressListResponse,
  ChangeEmailBody,
  MarketingConsent,
  MembershipResponse,
  Profile,
  SetMarketingConsentBody,
  UpdateProfileBody,
} from '@shop/shared/membership';
import { CookieConsentBody } from '@shop/shared/storefront';
import { requestMeta } from '../auth/http.ts';
import { pendingEmailChange, requestEmailChange } from '../auth/service.ts';
import { marketingConsent, setMarketingConsent } from './consent.ts';
import * as profile from './profile.ts';
import { membership } from './service.ts';
import { recordCookieConsent } from './cookie-consents.ts';

const IdParams = z.object({ id: z.uuid('地址代碼不正確') });

/** The member's own data: membership and coupons, profile, e-mail change, address book, cookie choices. */
const member: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uid = (request: FastifyRequest) => request.auth!.user.id;
  const authDeps = () => ({
    db: app.db,
    limiter: app.limiter,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
  });

  r.get('/api/me/membership', { schema: { response: { 200: MembershipResponse } } }, async (request) =>
    membership(app.db, uid(request)),
  );

  r.get('/api/me/profile', { schema: { response: { 200: Profile } } }, async (request) =>
    profile.getProfile(app.db, uid(request), await pendingEmailChange(authDeps(), uid(request))),
  );

  r.patch(
    '/api/me/profile',
    { schema: { body: UpdateProfileBody, response: { 200: Profile } } },
    async (request) => {
      await profile.updateProfile(app.db, uid(request), request.body);
      // The name signed-in requests carry is kept in memory for a while: drop it everywhere.
      await app.sessionsEnded(uid(request));
      return profile.getProfile(app.db, uid(request), await pendingEmailChange(authDeps(), uid(request)));
    },
  );

  r.get('/api/me/marketing-consent', { schema: { response: { 200: MarketingConsent } } }, async (request) =>
    marketingConsent(app.db, uid(request)),
  );

  r.put(
    '/api/me/marketing-consent',
    { schema: { body: SetMarketingConsentBody, response: { 200: MarketingConsent } } },
    async (request) =>
      app.db.transaction((tx) => setMarketingConsent(tx, uid(request), request.body.granted, 'settings')),
  );

  r.post(
    '/api/me/email',
    { schema: { body: ChangeEmailBody, response: { 200: z.object({ pendingEmail: z.string() }) } } },
    async (request) =>
      requestEmailChange(
        authDeps(),
        uid(request),
        request.body.newEmail,
        request.body.password,
        requestMeta(request),
      ),
  );

  // The member's cookie choice, kept as a record (docs/decisions/042); 204, nothing to show.
  r.post('/api/me/cookie-consent', { schema: { body: CookieConsentBody } }, async (request, reply) => {
    await recordCookieConsent(app.db, uid(request), request.body);
    return reply.code(204).send();
  });

  r.get('/api/me/addresses', { schema: { response: { 200: AddressListResponse } } }, async (request) => ({
    addresses: await profile.listAddresses(app.db, uid(request)),
  }));
  r.post(
    '/api/me/addresses',
    { schema: { body: AddressBody, response: { 200: AddressListResponse } } },
    async (request) => ({
      addresses: await profile.addAddress(app.db, uid(request), request.body),
    }),
  );
  r.put(
    '/api/me/addresses/:id',
    { schema: { params: IdParams, body: AddressBody, response: { 200: AddressListResponse } } },
    async (request) => ({
      addresses: await profile.editAddress(app.db, uid(request), request.params.id, request.body),
    }),
  );
  r.post(
    '/api/me/addresses/:id/default',
    { schema: { params: IdParams, response: { 200: AddressListResponse } } },
    async (request) => ({
      addresses: await profile.makeDefault(app.db, uid(request), request.params.id),
    }),
  );
  r.delete(
    '/api/me/addresses/:id',
    { schema: { params: IdParams, response: { 200: AddressListResponse } } },
    async (request) => ({
      addresses: await profile.removeAddress(app.db, uid(request), request.params.id),
    }),
  );
};

export default member;
