import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { StorefrontCopy } from './storefront.ts';

/** The event-bus channel of footer and measurement-ID saves (not a member: no page listens to it). */
const SITE_CHANNEL = 'site';

/**
 * Keeps this app's copy of the footer facts and measurement IDs (read by every page's footer and by
 * the content security policy) in step: read at start, again after a save here
 * (`app.storefrontChanged()`, which the other instances hear of through the event bus), on another
 * instance's news, and after a gap in that news. This instance's own news is told apart by origin.
 */
export default fp<{ storefront: StorefrontCopy }>(
  async (app, { storefront }) => {
    const origin = randomUUID();
    const reload = () =>
      storefront
        .reload(app.db)
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'storefront settings could not be read; keeping the last ones'),
        );
    await storefront.reload(app.db);
    app.decorate('storefrontChanged', async () => {
      await reload();
      void app.events.publish(SITE_CHANNEL, { type: 'site.storefront.changed', data: { origin } });
    });
    const stopRemote = app.events.subscribeAll((_channel, event) => {
      if (event.type === 'site.storefront.changed' && event.data.origin !== origin) void reload();
    });
    const stopGap = app.events.onGap(() => void reload());
    app.addHook('onClose', async () => {
      stopRemote();
      stopGap();
    });
  },
  { name: 'storefront', dependencies: ['db', 'events'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** After a save of the footer or the IDs commits: this copy reads them again and the other instances hear of it. */
    storefrontChanged(): Promise<void>;
  }
}
