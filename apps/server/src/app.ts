import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiErrorBody } from '@shop/shared/api-error';
import { CommonErrorCode } from '@shop/shared/error-codes';
import type { AppConfig } from './config/env.ts';
import type { Database } from './db/client.ts';
import { AppError } from './lib/errors.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import securityPlugin from './plugins/security.ts';
import sessionPlugin from './plugins/session.ts';
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
}

const STATUS_CODES: Record<number, { code: string; message: string }> = {
  400: { code: CommonErrorCode.invalidArgument, message: '送出的資料格式不正確。' },
  401: { code: CommonErrorCode.unauthenticated, message: '請先登入會員。' },
  403: { code: CommonErrorCode.forbidden, message: '您沒有權限進行這項操作。' },
  404: { code: CommonErrorCode.notFound, message: '找不到您要的資料。' },
  405: { code: 'method-not-allowed', message: '不支援這個請求方式。' },
  406: { code: 'not-acceptable', message: '無法提供這種格式的內容。' },
  413: { code: 'payload-too-large', message: '送出的資料太大。' },
  415: { code: 'unsupported-media-type', message: '不支援這種資料格式。' },
  429: { code: CommonErrorCode.tooManyRequests, message: '嘗試次數過多，請稍後再試。' },
};

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

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = toErrorBody(error);
    if (body.status >= 500) request.log.error({ err: error, url: request.url, method: request.method }, 'request failed');
    else request.log.info({ code: body.payload.error.code, url: request.url }, 'request refused');
    if (error instanceof AppError && error.headers) reply.headers(error.headers);
    return reply.code(body.status).header('cache-control', 'no-store').send(body.payload);
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).header('cache-control', 'no-store').send({
      error: { code: CommonErrorCode.notFound, message: `找不到這個路徑：${request.url.split('?', 1)[0]}` },
    } satisfies ApiErrorBody);
  });

  await app.register(configPlugin, { config });
  await app.register(dbPlugin, { database: options.database, closeOnShutdown: options.closeDatabase ?? true });
  await app.register(securityPlugin);
  await app.register(sessionPlugin);

  await app.register(healthModule);
  await app.register(redirectsModule);
  await app.register(authModule);
  if (config.isTest) await app.register(testSupportModule);

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

function toErrorBody(error: FastifyError): { status: number; payload: ApiErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      payload: { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } },
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const key = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
      fields[key] ??= issue.message ?? '格式不正確';
    }
    const first = Object.entries(fields)[0];
    const where = error.validationContext === 'querystring' ? '查詢參數' : error.validationContext === 'params' ? '網址參數' : '資料';
    return {
      status: 400,
      payload: {
        error: {
          code: CommonErrorCode.invalidArgument,
          message: first ? `${where}有誤（${first[0]}）：${first[1]}` : `${where}有誤。`,
          fields,
        },
      },
    };
  }
  if (isResponseSerializationError(error)) {
    return { status: 500, payload: { error: { code: CommonErrorCode.internal, message: '伺服器發生錯誤，請稍後再試。' } } };
  }
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  const known = STATUS_CODES[status];
  if (status < 500 && known) return { status, payload: { error: { code: known.code, message: known.message } } };
  if (status < 500) return { status, payload: { error: { code: CommonErrorCode.invalidArgument, message: '請求無法處理。' } } };
  return { status: 500, payload: { error: { code: CommonErrorCode.internal, message: '伺服器發生錯誤，請稍後再試。' } } };
}
