import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiErrorBody } from '@shop/shared/api-error';
import { CommonErrorCode } from '@shop/shared/error-codes';
import type { AppConfig } from './config/env.ts';
import type { Database } from './db/client.ts';
import type { ObjectStore } from './modules/storage/backends.ts';
import { errorHandler } from './lib/error-body.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import securityPlugin from './plugins/security.ts';
import sessionPlugin from './plugins/session.ts';
import mailPlugin from './plugins/mail.ts';
import rateLimiterPlugin from './plugins/rate-limiter.ts';
import mailboxModule from './modules/mailbox/index.ts';
import catalogModule from './modules/catalog/index.ts';
import storageModule from './modules/storage/index.ts';
import { createObjectStore } from './modules/storage/create-store.ts';
import spaPlugin from './plugins/spa.ts';
import authModule from './modules/auth/index.ts';
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
}

/** Builds the whole server without listening, so tests use the same app through `inject`. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: loggerOptions(config),
    // Behind a proxy in production the client address comes from X-Forwarded-For.
    trustProxy: config.isProduction,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 1000 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('extraFormActions', [] as string[]);

  app.setErrorHandler(errorHandler());
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).header('cache-control', 'no-store').send({
      error: { code: CommonErrorCode.notFound, message: `找不到這個路徑：${request.url.split('?', 1)[0]}` },
    } satisfies ApiErrorBody);
  });

  await app.register(configPlugin, { config });
  await app.register(dbPlugin, { database: options.database, closeOnShutdown: options.closeDatabase ?? true });
  await app.register(securityPlugin);
  await app.register(sessionPlugin);
  await app.register(rateLimiterPlugin);
  await app.register(mailPlugin);

  await app.register(healthModule);
  await app.register(redirectsModule);
  await app.register(authModule);
  await app.register(catalogModule);
  await app.register(storageModule, { store: options.store ?? createObjectStore(config) });
  if (config.isTest) await app.register(testSupportModule);
  if (!config.isProduction) await app.register(mailboxModule);

  await app.register(spaPlugin);
  return app;
}

function loggerOptions(config: AppConfig) {
  if (config.isTest) return { level: config.logLevel === 'info' ? 'silent' : config.logLevel };
  const base = {
    level: config.logLevel,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], remove: true },
  };
  if (!config.isProduction && process.stdout.isTTY) {
    return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } };
  }
  return base;
}
