import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiErrorBody } from '@shop/shared/api-error';
import { CommonErrorCode } from '@shop/shared/error-codes';
import type { AppConfig } from './config/env.ts';
import type { Database } from './db/client.ts';
import type { ObjectStore } from './modules/storage/backends.ts';
import { boundBodyTime } from './lib/body-deadline.ts';
import { errorHandler } from './lib/error-body.ts';
import { formPoster } from './lib/form-post.ts';
import { frameworkErrors } from './lib/framework-errors.ts';
import { logSerializers } from './lib/log-redaction.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import securityPlugin from './plugins/security.ts';
import jsonBodyPlugin from './plugins/json-body.ts';
import sessionPlugin from './modules/auth/session-plugin.ts';
import mailPlugin from './plugins/mail.ts';
import outboxPlugin from './plugins/outbox.ts';
import redisPlugin from './plugins/redis.ts';
import rateLimiterPlugin from './plugins/rate-limiter.ts';
import mailboxModule from './modules/mailbox/index.ts';
import catalogModule from './modules/catalog/index.ts';
import cartModule from './modules/cart/index.ts';
import ordersModule from './modules/orders/index.ts';
import paymentsModule from './modules/payments/index.ts';
import sandboxModule from './modules/payments/sandbox/index.ts';
import linePaySandbox from './modules/payments/sandbox/line-pay.ts';
import { LINE_PAY_WEB_ORIGINS } from './config/line-pay-config.ts';
import logisticsSandboxModule from './modules/logistics/sandbox/index.ts';
import logisticsModule from './modules/logistics/index.ts';
import invoicesModule from './modules/invoices/index.ts';
import einvoiceSandbox from './modules/invoices/sandbox.ts';
import { dbEinvoices } from './modules/invoices/sandbox-store.ts';
import { SANDBOX_EINVOICE_PATH } from './modules/invoices/ecpay-invoice-protocol.ts';
import eventsModule, { type StreamLimits } from './modules/events/index.ts';
import adminModule from './modules/admin/index.ts';
import backupModule from './modules/backup/index.ts';
import type { AdminRouteEntry } from './plugins/staff-guard.ts';
import memberModule from './modules/membership/index.ts';
import contentModule from './modules/content/index.ts';
import contactModule from './modules/contact/index.ts';
import siteModule from './modules/site/index.ts';
import maintenancePlugin from './modules/site/maintenance-plugin.ts';
import { mailFacts, storefrontCopy } from './modules/site/storefront.ts';
import storefrontPlugin from './modules/site/storefront-plugin.ts';
import seoModule from './modules/seo/index.ts';
import eventsPlugin from './plugins/events.ts';
import jobsPlugin from './plugins/jobs.ts';
import commercePlugin, { type CommerceOptions } from './modules/discounts/commerce-plugin.ts';
import { issueBirthdayCoupons } from './modules/membership/service.ts';
import { expireOverdueOrders } from './modules/orders/lifecycle.ts';
import { enqueueDailyDigest } from './modules/orders/digest.ts';
import { sendAtmTransferReminders, sendCardPaymentReminders } from './modules/orders/payment-reminders.ts';
import { sendAbandonedCartReminders } from './modules/cart/abandoned-cart.ts';
import { reminderSettings } from './modules/site/admin-service.ts';
import unsubscribeModule from './modules/membership/unsubscribe-routes.ts';
import { pageMeta } from './modules/seo/meta.ts';
import { onPageDataChange } from './modules/seo/page-data-news.ts';
import { toCurrentUser } from './modules/auth/present.ts';
import { memberCarts } from './modules/cart/member-carts.ts';
import wishlistModule from './modules/wishlist/index.ts';
import privacyModule from './modules/privacy/index.ts';
import restockModule from './modules/catalog/restock-routes.ts';
import { writeCliToken } from './lib/cli-token.ts';
import storageModule from './modules/storage/index.ts';
import { createObjectStore } from './modules/storage/create-store.ts';
import spaPlugin from './plugins/spa.ts';
import authModule from './modules/auth/index.ts';
import oidcSandbox from './modules/auth/sandbox/index.ts';
import healthModule from './modules/health/index.ts';
import redirectsModule from './modules/redirects/index.ts';
import testSupportModule from './modules/test-support/index.ts';

// Default validation messages in Traditional Chinese for every zod schema the server runs.
z.config(z.locales.zhTW());

export interface BuildOptions {
  readonly config: AppConfig;
  readonly database: Database;
  /** The server closes the database on shutdown unless the caller keeps ownership (tests). */
  readonly closeDatabase?: boolean;
  /** Where file bytes go; by default local files under DATA_DIR/storage, or S3 when configured. */
  readonly store?: ObjectStore;
  /** Store locator and discount provider (tests may pass their own). */
  readonly commerce?: CommerceOptions;
  /** The token `npm run order:advance` uses; by default a new one is written to DATA_DIR. */
  readonly cliToken?: string;
  /** Socket time-outs; tests shorten them to watch them work. */
  readonly httpTimeouts?: Partial<HttpTimeouts>;
  /** Caps on live-update streams (tests lower them). */
  readonly streamLimits?: Partial<StreamLimits>;
}

/**
 * How long a client may take, so a slow or silent one cannot hold a socket for ever. The numbers
 * and why: docs/decisions/006-security-hardening.md.
 */
export interface HttpTimeouts {
  /** The whole request, headers and body, received: the bound for uploads (routes marked `slowBody`). */
  readonly requestMs: number;
  /** A request's body received, from its headers, on every other route (lib/body-deadline.ts). */
  readonly bodyMs: number;
  /** The request's headers received. */
  readonly headersMs: number;
  /** No byte either way on a socket (a live-update stream writes every 25 s). */
  readonly idleMs: number;
  /** An idle keep-alive socket between two requests. */
  readonly keepAliveMs: number;
  /** How often Node looks for requests past their request or headers time-out. */
  readonly checkEveryMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  // A 30 MB picture upload still finishes at 280 kbit/s (a phone on a weak signal).
  requestMs: 15 * 60_000,
  // Every other body is a form or JSON of at most 1 MB: a minute is ample even on a weak signal.
  bodyMs: 60_000,
  headersMs: 20_000,
  idleMs: 120_000,
  // Longer than the 60 s a proxy in front typically keeps an idle upstream socket, so the proxy,
  // not this server, closes it first (no request lost in the race).
  keepAliveMs: 65_000,
  checkEveryMs: 5_000,
};

/** Builds the whole server without listening, so tests use the same app through `inject`. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const timeouts = { ...HTTP_TIMEOUTS, ...options.httpTimeouts };
  const app = Fastify({
    logger: loggerOptions(config),
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names; otherwise anyone could
    // pick their own address and walk around every per-address limit.
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 1000 },
    // A URL the router cannot read answers in the one error shape (400 invalid-url), not Fastify's.
    frameworkErrors,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Checkout posts its payment form to ECPay's cashier when one is configured; the LINE Pay form
  // posts to the shop, which redirects to LINE Pay's payment page (a redirect form-action covers too).
  app.decorate(
    'extraFormActions',
    [
      config.ecpay.endpoint,
      config.logistics.endpoint,
      ...(config.linePay && !config.linePay.sandbox ? LINE_PAY_WEB_ORIGINS : []),
    ]
      .filter((u): u is string => Boolean(u))
      .map((u) => new URL(u).origin),
  );

  app.setErrorHandler(errorHandler());
  boundBodyTime(app, timeouts.bodyMs);
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .header('cache-control', 'no-store')
      .send({
        error: { code: CommonErrorCode.notFound, message: `找不到這個路徑：${request.url.split('?', 1)[0]}` },
      } satisfies ApiErrorBody);
  });

  await app.register(configPlugin, { config });
  await app.register(dbPlugin, {
    database: options.database,
    closeOnShutdown: options.closeDatabase ?? true,
  });
  // The footer's facts and the measurement IDs: the site module reads them; the content security
  // policy names the configured providers' hosts (docs/decisions/042).
  const storefront = storefrontCopy();
  await app.register(securityPlugin, { thirdPartySources: () => storefront.sources() });
  await app.register(jsonBodyPlugin);
  await app.register(sessionPlugin);
  await app.register(redisPlugin);
  await app.register(rateLimiterPlugin);
  await app.register(maintenancePlugin);
  await app.register(outboxPlugin, { leaseMs: config.outboxLeaseMs });
  await app.register(mailPlugin, { shopFacts: () => mailFacts(storefront.current().footer) });
  await app.register(eventsPlugin);
  await app.register(storefrontPlugin, { storefront });
  await app.register(commercePlugin, options.commerce ?? {});
  await app.register(jobsPlugin, {
    birthdayCoupons: (db) => issueBirthdayCoupons(db),
    expireOverdueOrders: (deps) => expireOverdueOrders(deps),
    dailyDigest: (deps) => enqueueDailyDigest(deps),
    invoiceAwards: () => app.checkInvoiceAwards(),
    // Each reminder reads the owner's switches at its run (docs/product-rules.md#reminders).
    cardPaymentReminders: async (deps) => {
      const s = await reminderSettings(deps.db);
      return sendCardPaymentReminders(deps, { enabled: s.cardPayment, leadMinutes: s.cardLeadMinutes });
    },
    atmTransferReminders: async (deps) =>
      sendAtmTransferReminders(deps, { enabled: (await reminderSettings(deps.db)).atmTransfer }),
    abandonedCartReminders: async (deps) => {
      const s = await reminderSettings(deps.db);
      return sendAbandonedCartReminders(deps, { enabled: s.abandonedCart, delayHours: s.abandonedCartHours });
    },
  });

  await app.register(healthModule);
  await app.register(redirectsModule);
  await app.register(authModule);
  await app.register(catalogModule);
  await app.register(restockModule);
  const store = options.store ?? createObjectStore(config);
  await app.register(storageModule, { store });
  const carts = memberCarts(app.db, app.events);
  app.addHook('onClose', async () => carts.close());
  await app.register(cartModule, { carts });
  await app.register(wishlistModule);
  await app.register(privacyModule);
  await app.register(invoicesModule);
  await app.register(ordersModule, { store });
  await app.register(memberModule);
  await app.register(unsubscribeModule);
  await app.register(contentModule);
  await app.register(contactModule);
  await app.register(siteModule, { storefront });
  await app.register(seoModule);
  await app.register(paymentsModule);
  await app.register(logisticsModule);
  await app.register(eventsModule, { limits: options.streamLimits });
  const adminRoutes: AdminRouteEntry[] = [];
  app.decorate('adminRoutes', adminRoutes);
  const cliToken = options.cliToken ?? writeCliToken(config.dataDir);
  await app.register(adminModule, { cliToken, registry: adminRoutes });
  await app.register(backupModule, { cliToken });
  if (!config.isProduction && !config.ecpay.endpoint) await app.register(sandboxModule);
  if (!config.isProduction && config.linePay?.sandbox)
    await app.register(linePaySandbox, { channel: config.linePay });
  if (!config.isProduction && !config.logistics.endpoint) await app.register(logisticsSandboxModule);
  if (!config.isProduction && !config.einvoice.endpoint)
    await app.register(einvoiceSandbox, {
      prefix: SANDBOX_EINVOICE_PATH,
      settings: config.einvoice,
      store: dbEinvoices(app.db),
      notify: formPoster(app, config.publicUrl),
    });
  // A sign-in provider without real credentials is the built-in sandbox, outside production only
  // (production hides the button instead; config/env.ts refuses the sandbox's stand-ins there).
  for (const provider of ['line', 'google'] as const) {
    const client = config.socialSignIn[provider];
    if (!config.isProduction && client?.sandbox) await app.register(oidcSandbox, { provider, client });
  }
  if (config.isTest) await app.register(testSupportModule);
  if (!config.isProduction) await app.register(mailboxModule);

  await app.register(spaPlugin, {
    pageMeta,
    memberParts: async (visitor) => {
      const { cart } = await carts.get(visitor.user.id);
      return { user: toCurrentUser(visitor.user), cart };
    },
    onPageDataChange: (listener) => onPageDataChange(app.events, listener),
  });
  return app;
}

/** Fastify's form of TRUST_PROXY: a hop count becomes "the nearest n hops" (proxy-addr's meaning). */
function trustProxyOption(trust: AppConfig['trustProxy']) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust === false ? false : [...trust];
}

function loggerOptions(config: AppConfig) {
  const base = {
    level: config.isTest && config.logLevel === 'info' ? 'silent' : config.logLevel,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
    // Action codes and tokens in query strings never reach a log line.
    serializers: logSerializers,
  };
  if (config.isTest) return base;
  if (!config.isProduction && process.stdout.isTTY) {
    return {
      ...base,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
    };
  }
  return base;
}
