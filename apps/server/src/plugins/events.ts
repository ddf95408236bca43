import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import type { RedisLink } from './redis.ts';

/**
 * Something that happened to one member's data, pushed to their open pages. `session.ended` is for
 * the server only, never sent to a page: some session of the member may have ended (sign-out,
 * password reset or change, account disabled), so streams opened with it must be checked.
 */
export interface MemberEvent {
  readonly type:
    | 'order.updated'
    | 'membership.updated'
    | 'cart.updated'
    | 'session.ended'
    | 'site.maintenance'
    | 'catalog.changed'
    | 'content.changed'
    | 'site.storefront.changed'
    | 'redirects.changed';
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The address every open stream listens to besides its member's own: news for every page, such as
 * `site.maintenance` ({ enabled }) when the owner switches maintenance mode.
 */
export const EVERYONE = '*';

export interface EventBus {
  readonly kind: 'memory' | 'redis';
  /**
   * Hands the event on and returns at once: it never waits for Redis and never fails, so a change
   * that committed is never answered as an error. An event lost to an outage is made good by
   * `onGap`: the pages reconnect and fetch again.
   */
  publish(userId: string, event: MemberEvent): Promise<void>;
  subscribe(userId: string, listener: (event: MemberEvent) => void): () => void;
  /** Every member's events on this instance (its own and, through Redis, the others'). */
  subscribeAll(listener: (userId: string, event: MemberEvent) => void): () => void;
  /**
   * Called when events from other instances may have been missed (the shared channel was lost and
   * is back): the events module ends its streams, and each page reconnects and refetches.
   */
  onGap(listener: () => void): () => void;
  close(): Promise<void>;
}

/** One process: listeners in memory. */
const EVERY_MEMBER = Symbol('every member');

export function memoryEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    async publish(userId, event) {
      emitter.emit(userId, event);
      emitter.emit(EVERY_MEMBER, userId, event);
    },
    subscribe(userId, listener) {
      emitter.on(userId, listener);
      return () => emitter.off(userId, listener);
    },
    subscribeAll(listener) {
      emitter.on(EVERY_MEMBER, listener);
      return () => emitter.off(EVERY_MEMBER, listener);
    },
    // Nothing is shared, so nothing can be missed.
    onGap: () => () => undefined,
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = 'shop:member-events';

/**
 * Several instances: every event goes through Redis pub/sub, so any instance can serve any member.
 * While Redis is away an event reaches the pages on this instance only; when the subscription is
 * back, `onGap` listeners hear of it.
 */
export function redisEventBus(link: RedisLink): EventBus {
  const local = memoryEventBus();
  const gapListeners = new Set<() => void>();
  const sub = link.duplicate();
  sub.on('message', (_channel, message: string) => {
    try {
      const { userId, event } = JSON.parse(message) as { userId: string; event: MemberEvent };
      void local.publish(userId, event);
    } catch {
      // A message from something else on the channel: ignore it.
    }
  });
  // Every (re)connection subscribes afresh; whatever was published meanwhile never arrived here.
  sub.on('ready', () => {
    sub.subscribe(CHANNEL).then(
      () => {
        for (const listener of gapListeners) listener();
      },
      (error: unknown) => link.reportFailure(error, 'live-update subscription'),
    );
  });
  void sub.connect().catch(() => undefined);
  return {
    kind: 'redis',
    async publish(userId, event) {
      if (!link.ready()) return local.publish(userId, event);
      link.client.publish(CHANNEL, JSON.stringify({ userId, event })).catch((error: unknown) => {
        link.reportFailure(error, 'live-update publish');
        // Perhaps never sent: at least this instance's pages hear of it.
        void local.publish(userId, event);
      });
    },
    subscribe: local.subscribe,
    subscribeAll: local.subscribeAll,
    onGap(listener) {
      gapListeners.add(listener);
      return () => gapListeners.delete(listener);
    },
    async close() {
      gapListeners.clear();
      await local.close();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventBus;
    /**
     * Call after sessions of a member ended (the change committed): every instance checks that
     * member's open live-update streams against the database and closes those whose session is over.
     */
    sessionsEnded(userId: string): Promise<void>;
    /**
     * Hears of `sessionsEnded` for a member (at once for this instance's own calls, through Redis
     * for the others'), or of null when some may have been missed (a Redis gap): what an instance
     * keeps about signed-in members is dropped then.
     */
    onSessionsEnded(listener: (userId: string | null) => void): () => void;
  }
}

export default fp(
  async (app) => {
    const bus = app.redis ? redisEventBus(app.redis) : memoryEventBus();
    if (bus.kind === 'redis')
      app.log.info(
        'realtime events: fanned out through Redis while it answers, to this instance only otherwise',
      );
    app.decorate('events', bus);
    const ended = new Set<(userId: string | null) => void>();
    // This instance's own call is heard before the call returns; the others' through the bus.
    app.decorate('sessionsEnded', async (userId: string) => {
      for (const listener of ended) listener(userId);
      await bus.publish(userId, { type: 'session.ended', data: {} });
    });
    app.decorate('onSessionsEnded', (listener: (userId: string | null) => void) => {
      ended.add(listener);
      return () => ended.delete(listener);
    });
    bus.subscribeAll((userId, event) => {
      if (event.type === 'session.ended') for (const listener of ended) listener(userId);
    });
    bus.onGap(() => {
      for (const listener of ended) listener(null);
    });
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'events', dependencies: ['config', 'redis'] },
);
