import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

/**
 * How far back an idle cart is still reminded of: a cart left longer than the delay plus this is
 * left alone (switching the reminder on must not mail every old cart in the shop).
 */
export const ABANDONED_CART_WINDOW_HOURS = 72;

export interface IdleCart {
  userId: string;
  email: string;
  name: string;
}

/**
 * Members whose cart has not changed for `delayHours` (its newest line's `updated_at`), no longer
 * than the window beyond that, and not yet reminded of since that change; verified, enabled
 * accounts only.
 */
export async function idleCarts(db: DbOrTx, now: Date, delayHours: number, limit = 200): Promise<IdleCart[]> {
  return rows<{ user_id: string; email: string; display_name: string }>(
    await db.execute(sql`
      with carts as (
        select user_id, max(updated_at) as changed_at from cart_items group by user_id
      )
      select c.user_id, u.email, u.display_name from carts c
      join users u on u.id = c.user_id
      left join cart_reminders r on r.user_id = c.user_id
      where c.changed_at <= ${now}::timestamptz - make_interval(hours => ${delayHours}::int)
        and c.changed_at > ${now}::timestamptz - make_interval(hours => ${delayHours + ABANDONED_CART_WINDOW_HOURS}::int)
        and (r.user_id is null or r.cart_changed_at < c.changed_at)
        and u.email_verified_at is not null and u.disabled_at is null
      order by c.changed_at limit ${limit}`),
  ).map((r) => ({ userId: r.user_id, email: r.email, name: r.display_name }));
}

/**
 * Claims the reminder of a member's cart as it is now, in one statement: the cart's last change is
 * read and written to `cart_reminders` only while it is inside the delay's window and newer than
 * the change last reminded of. A second claim of the same cart (a re-run, the other instance)
 * finds the row already there and writes nothing. True when this call claimed it.
 */
export async function claimCartReminder(
  db: DbOrTx,
  userId: string,
  now: Date,
  delayHours: number,
): Promise<boolean> {
  return (
    rows(
      await db.execute(sql`
        insert into cart_reminders (user_id, cart_changed_at, sent_at)
        select user_id, max(updated_at), ${now}::timestamptz from cart_items where user_id = ${userId}::uuid
        group by user_id
        having max(updated_at) <= ${now}::timestamptz - make_interval(hours => ${delayHours}::int)
          and max(updated_at) > ${now}::timestamptz - make_interval(hours => ${delayHours + ABANDONED_CART_WINDOW_HOURS}::int)
        on conflict (user_id) do update set cart_changed_at = excluded.cart_changed_at, sent_at = excluded.sent_at
          where cart_reminders.cart_changed_at < excluded.cart_changed_at
        returning user_id`),
    ).length > 0
  );
}
