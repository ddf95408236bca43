import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError, UnauthenticatedError } from '../../lib/errors.ts';
import { isLocalCli } from '../../lib/this-machine.ts';
import { startBackup, storageRoot } from './service.ts';

const BackupQuery = z.object({ format: z.enum(['native', 'logical']).default('native') }).strict();

/**
 * GET /api/admin/backup?format=native|logical: the backup archive, streamed, for `npm run backup`
 * only (the command-line token the server writes to DATA_DIR). The embedded database belongs to
 * this process, so this is how a consistent copy of it is taken while the shop runs. No console
 * role may download it: it holds every account's password hash.
 */
const backup: FastifyPluginAsync<{ cliToken: string }> = async (app, options) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/admin/backup',
      { schema: { querystring: BackupQuery }, compress: false },
      async (request, reply) => {
        if (!isLocalCli(request, options.cliToken)) {
          if (request.auth) throw new ForbiddenError('備份只能在伺服器上以 npm run backup 取得。');
          throw new UnauthenticatedError('備份只能在伺服器上以 npm run backup 取得。');
        }
        const run = await startBackup({
          database: app.database,
          format: request.query.format,
          databaseUrl: app.config.databaseUrl,
          storageRoot: storageRoot(app.config),
        });
        run.done.then(
          ({ end, note }) =>
            request.log.info({ files: end.files, database: run.manifest.database, note }, 'backup sent'),
          (error: unknown) => request.log.error({ err: error }, 'backup broken off'),
        );
        const stamp = run.manifest.createdAt.replace(/[-:]/g, '').replace(/\..*$/, '');
        return reply
          .header('content-type', 'application/x-tar')
          .header('content-disposition', `attachment; filename="shanlan-${run.manifest.engine}-${stamp}.tar"`)
          .header('cache-control', 'no-store')
          .send(run.stream);
      },
    );
};

export default backup;
