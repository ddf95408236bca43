import type { CartResponse } from '@shop/shared/cart';
import type { DbOrTx } from '../../db/client.ts';
import type { EventBus } from '../../plugins/events.ts';
import { onCatalogChange } from '../catalog/service.ts';
import { getCart } from './service.ts';

/** A member's cart as it was read, and when (ms since the epoch). */
export interface ReadCart {
  cart: CartResponse;
  at: number;
}

/** Members' carts kept between their page views; what changes them drops them. */
export interface MemberCarts {
  get(userId: string): Promise<ReadCart>;
  /** This instance's own change (the event that tells every instance follows). */
  drop(userId: string): void;
  close(): void;
}

/**
 * Members' carts as the pages rendered on the server show them (the header's count, the page's
 * state), kept so that a page view does not read the cart again: at most `max` members, each at
 * most `ttlMs`. A cart is dropped when it changes (`cart.updated`, on any instance) and every cart
 * when the catalogue does (its lines carry prices and stock). A read that a drop overtook is
 * answered but not kept. The cart API itself always reads afresh.
 */
export function memberCarts(
  db: DbOrTx,
  events: EventBus,
  options: { max?: number; ttlMs?: number; now?: () => number } = {},
): MemberCarts {
  const max = options.max ?? 10_000;
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, ReadCart>();
  // Numbered drops: a read that started before any drop is not kept (simple, and right).
  let drops = 0;
  const drop = (userId: string) => {
    drops += 1;
    entries.delete(userId);
  };
  const dropAll = () => {
    drops += 1;
    entries.clear();
  };
  const stops = [
    events.subscribeAll((userId, event) => {
      if (event.type === 'cart.updated') drop(userId);
      else if (event.type === 'catalog.changed') dropAll();
    }),
    onCatalogChange(dropAll),
    events.onGap(dropAll),
  ];
  return {
    async get(userId) {
      const hit = entries.get(userId);
      if (hit && now() - hit.at < ttlMs) {
        entries.delete(userId);
        entries.set(userId, hit);
        return hit;
      }
      const started = drops;
      const read = { cart: await getCart(db, userId), at: now() };
      if (drops === started) {
        entries.delete(userId);
        entries.set(userId, read);
        if (entries.size > max) entries.delete(entries.keys().next().value as string);
      }
      return read;
    },
    drop,
    close: () => {
      for (const stop of stops) stop();
      entries.clear();
    },
  };
}
