import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * Something that happened to one member's data, pushed to their open pages. `session.ended` is for
 * the server only, never sent to a page: some session of the member may have ended (sign-out,
 * password reset or change, account disabled), so streams opened with it must be checked.
 */
export interface MemberEvent {
  readonly type: 'order.updated' | 'membership.updated' | 'cart.updated' | 'session.ended';
  readonly data: Readonly<Record<string, unknown>>;
}

export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(userId: string, event: MemberEvent): Promise<void>;
  subscribe(userId: string, listener: (event: MemberEvent) => void): () => void;
  close(): Promise<void>;
}

/** One process: listeners in memory. */
export function memoryEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    async publish(userId, event) {
      emitter.emit(userId, event);
    },
    subscribe(userId, listener) {
      emitter.on(userId, listener);
      return () => emitter.off(userId, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = 'shop:member-events';

/** Several instances: every event goes through Redis pub/sub, so any instance can serve any member. */
export async function redisEventBus(url: string): Promise<EventBus> {
  const local = memoryEventBus();
  const pub = new Redis(url, { maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { maxRetriesPerRequest: 2 });
  await sub.subscribe(CHANNEL);
  sub.on('message', (_channel, message: string) => {
    try {
      const { userId, event } = JSON.parse(message) as { userId: string; event: MemberEvent };
      void local.publish(userId, event);
    } catch {
      // A message from something else on the channel: ignore it.
    }
  });
  return {
    kind: 'redis',
    async publish(userId, event) {
      await pub.publish(CHANNEL, JSON.stringify({ userId, event }));
    },
    subscribe: local.subscribe,
    async close() {
      await Promise.all([pub.quit(), sub.quit()]);
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
  }
}

export default fp(
  async (app) => {
    const bus = app.config.redisUrl ? await redisEventBus(app.config.redisUrl) : memoryEventBus();
    if (bus.kind === 'redis') app.log.info('realtime events: fanned out through Redis');
    app.decorate('events', bus);
    app.decorate('sessionsEnded', (userId: string) => bus.publish(userId, { type: 'session.ended', data: {} }));
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'events', dependencies: ['config'] },
);
