import fp from 'fastify-plugin';
import type { Database, Db } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    db: Db;
  }
}

export interface DbPluginOptions {
  readonly database: Database;
  /** Close the database when the server closes (the server owns it). */
  readonly closeOnShutdown: boolean;
}

/** Exposes the opened database; whoever opened it decides who closes it. */
export default fp<DbPluginOptions>(
  async (app, options) => {
    // Lost connections and given-up transactions go to the server's log.
    options.database.setLogger(app.log.child({ module: 'db' }));
    app.decorate('database', options.database);
    app.decorate('db', options.database.db);
    if (options.closeOnShutdown) {
      app.addHook('onClose', async () => {
        await options.database.close();
      });
    }
  },
  { name: 'db' },
);
