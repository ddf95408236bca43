import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorHandler } from '../../lib/error-body.ts';
import type { ObjectStore } from './backends.ts';
import { MAX_UPLOAD_BYTES } from './buckets.ts';
import { storageError } from './errors.ts';
import { objectNameFromUrl } from './object-path.ts';
import * as service from './service.ts';

const Params = z.object({ bucket: z.string().min(1).max(63), '*': z.string().max(4096) });

/**
 * The object path of a read or delete URL is checked before the schema, so every malformed one
 * (however long) answers the same `invalid-url`.
 */
async function checkUrlPath(request: { params: unknown }): Promise<void> {
  objectNameFromUrl((request.params as { '*': string })['*']);
}
const BucketParams = z.object({ bucket: z.string().min(1).max(63) });
const ReadQuery = z.object({ alt: z.enum(['media', 'json']).optional() });
const UploadQuery = z.object({
  name: z.string({ error: '請提供檔案名稱（name）' }).min(1, '請提供檔案名稱（name）').max(4096),
});

function callerOf(request: FastifyRequest): service.Caller | null {
  const user = request.auth?.user;
  return user ? { userId: user.id, role: user.role ?? 'customer' } : null;
}

/** Parses a single `bytes=` range; null means "send it all", 'unsatisfiable' means 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null; // several ranges or another unit: the whole file is a valid answer
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return null;
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** How long the rest of a refused upload is read and dropped, so the client can read our answer. */
const UNREAD_BODY_GRACE_MS = 5000;

/**
 * After an upload was refused before its body was read, Node drops the rest of the body as it
 * arrives (keeping the connection usable for the answer); a client that keeps sending past the
 * grace period loses the connection.
 */
function limitUnreadBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete !== false || !raw.socket) return;
  const timer = setTimeout(() => raw.socket.destroy(), UNREAD_BODY_GRACE_MS);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
}

/**
 * File storage (docs/product-rules.md#http-behaviour): GET /api/storage/b/{bucket}/o/{path} (metadata, or the
 * bytes with ?alt=media: Range and conditional requests supported), POST …/o?name={path} to upload
 * (raw body), DELETE …/o/{path}. Errors use the storage codes of docs/product-rules.md#error-codes.
 */
const storage: FastifyPluginAsync<{ store: ObjectStore }> = async (app, options) => {
  const deps = (): service.StorageDeps => ({ db: app.db, store: options.store });
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler(
    errorHandler((body) =>
      body.error.code === 'payload-too-large'
        ? { error: { code: 'quota-exceeded', message: '檔案超過大小上限。' } }
        : body,
    ),
  );
  // Uploads are raw bytes of any type; the type is sniffed from the bytes, never trusted.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  r.get(
    '/api/storage/b/:bucket/o/*',
    {
      schema: { params: Params, querystring: ReadQuery },
      preValidation: checkUrlPath,
      config: { compress: false },
    },
    async (request, reply) => {
      const row = await service.getMetadata(
        deps(),
        callerOf(request),
        request.params.bucket,
        request.params['*'],
      );
      if (request.query.alt !== 'media') {
        return reply.header('cache-control', 'no-cache').send(service.toMetadata(row));
      }
      return sendObject(request, reply, row);
    },
  );

  async function sendObject(
    request: FastifyRequest,
    reply: FastifyReply,
    row: Awaited<ReturnType<typeof service.getMetadata>>,
  ) {
    const rule = service.bucketRule(row.bucket);
    const etag = `"${row.sha256}"`;
    const lastModified = new Date(Math.floor(row.updatedAt.getTime() / 1000) * 1000);
    reply
      .header('etag', etag)
      .header('last-modified', lastModified.toUTCString())
      .header('accept-ranges', 'bytes')
      .header('cache-control', rule.public ? `public, max-age=${rule.maxAge}` : 'private, no-cache')
      .header('x-content-type-options', 'nosniff');
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    if (
      ifNoneMatch
        ? ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
        : ifModifiedSince && Date.parse(ifModifiedSince) >= lastModified.getTime()
    ) {
      return reply.code(304).send();
    }
    const ifRange = request.headers['if-range'];
    const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, row.size);
    if (range === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', `bytes */${row.size}`)
        .send({ error: { code: 'invalid-argument', message: '要求的檔案範圍不存在。' } });
    }
    const baseName = row.name.split('/').pop() ?? row.name;
    if (row.contentType === 'application/pdf')
      reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(baseName)}`);
    const stream = await service.openObject(deps(), row, range ?? undefined);
    reply.type(row.contentType);
    if (range) {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${row.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(stream);
    }
    return reply.header('content-length', row.size).send(stream);
  }

  r.post(
    '/api/storage/b/:bucket/o',
    {
      // Up to 30 MB: it may take as long as a whole request may (app.ts, HttpTimeouts).
      config: { slowBody: true },
      schema: { params: BucketParams, querystring: UploadQuery },
      // The caller, the bucket and the declared size are checked before the body is parsed, so a
      // refused upload is answered at once and its bytes are never buffered.
      onRequest: async (request) => {
        const rule = service.assertCanWrite(request.params.bucket, callerOf(request));
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared)) service.assertSize(rule, declared);
      },
      onResponse: async (request) => limitUnreadBody(request),
    },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw storageError('invalid-argument', '請以檔案內容作為請求內容上傳。');
      const checksum = request.headers['x-content-sha256'];
      const meta = await service.upload(
        deps(),
        callerOf(request),
        request.params.bucket,
        request.query.name,
        body,
        typeof checksum === 'string' ? checksum : undefined,
      );
      return reply.code(201).header('cache-control', 'no-store').send(meta);
    },
  );

  r.delete(
    '/api/storage/b/:bucket/o/*',
    { schema: { params: Params }, preValidation: checkUrlPath },
    async (request, reply) => {
      await service.remove(deps(), callerOf(request), request.params.bucket, request.params['*']);
      return reply.code(204).send();
    },
  );
};

export default storage;
