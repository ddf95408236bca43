import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
import { backoffDelay } from '@shop/shared/limits';
import { rows } from '../db/rows.ts';
import type { DbOrTx } from '../db/client.ts';
import { outboxMessages } from '../db/schema.ts';

/**
 * The durable outbox (docs/decisions/014-outbox.md). A change writes what must follow it (a mail,
 * a gateway call) with `enqueueOutbox` inside its own transaction; the worker here delivers it
 * after the commit. Delivery is at least once per claim and guarded so that it happens once:
 *
 * - a row is claimed in one statement (`for update skip locked`, then a lease), so across any
 *   number of instances one worker holds it;
 * - a worker killed mid-delivery leaves its lease; when it runs out the row is set aside for a
 *   handover, then taken again. The lease is longer than any delivery may take (each handler keeps
 *   its own time-outs well below it), so a live worker is never overtaken;
 * - the attempt number is the claim's fencing token: only the claim that is still the row's may
 *   record its outcome, and a delivered message's record is retried for as long as the process
 *   runs. The exact guarantee (at most once unless the worker dies between delivering and
 *   recording): docs/decisions/014-outbox.md, "Exactly once, and where that stops";
 * - a failure waits 1 s, then ×1.5 each time, at most 60 s (the shop's retry backoff), for a day;
 *   then, or at once for a refusal that will not change (a rejected address, a gateway's "no"),
 *   the row is `failed` and the console shows it with its error and a retry button.
 */

/** What a handler throws when trying again cannot help; the row fails at once. */
export class PermanentDeliveryError extends Error {}

export type OutboxHandler = (
  payload: Record<string, unknown>,
  message: { id: number; key: string; attempts: number },
) => Promise<void>;

export interface OutboxEntry {
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  /** Enqueues with the same key are kept once; without one, each enqueue is its own message. */
  readonly key?: string | undefined;
  readonly summary?: string | undefined;
}

/** Writes messages in the caller's transaction; they are delivered once it commits. */
export async function enqueueOutbox(
  db: DbOrTx,
  entries: OutboxEntry | readonly OutboxEntry[],
): Promise<void> {
  const list = [entries].flat();
  if (list.length === 0) return;
  await db
    .insert(outboxMessages)
    .values(
      list.map((e) => ({
        kind: e.kind,
        key: e.key ?? `${e.kind}:${randomUUID()}`,
        payload: e.payload,
        summary: (e.summary ?? '').slice(0, 300),
      })),
    )
    .onConflictDoNothing({ target: outboxMessages.key });
}

/** Where a message stands, by its key (a mail's key is `mail:` and the key it was enqueued with); null when none was ever written. */
export async function outboxStatus(db: DbOrTx, key: string): Promise<'pending' | 'sent' | 'failed' | null> {
  const [row] = await db
    .select({ status: outboxMessages.status })
    .from(outboxMessages)
    .where(eq(outboxMessages.key, key))
    .limit(1);
  return row?.status ?? null;
}

/**
 * The hold a restore puts on the outbox (a `site_settings` row): a restored shop would otherwise
 * send again every mail and gateway call the live shop had pending, or had sent after the backup.
 * While it is there no worker claims anything; the owner releases it (console, or `npm run
 * outbox:release`), audited. docs/decisions/034-restore-holds-the-outbox.md.
 */
export const OUTBOX_HOLD_KEY = 'outbox.hold';

export interface OutboxHold {
  /** When it was put on (the restore). */
  readonly since: string;
  /** Why, in the operator's words. */
  readonly reason: string;
}

/** Puts the hold on (a restore does, into the database it has just restored). */
export async function holdOutbox(db: DbOrTx, reason: string): Promise<void> {
  await db.execute(sql`
    insert into site_settings (key, value) values (${OUTBOX_HOLD_KEY}, jsonb_build_object('since', now(), 'reason', ${reason}::text))
    on conflict (key) do update set value = excluded.value, updated_at = now()`);
}

/** The hold, or null when the outbox sends. */
export async function readOutboxHold(db: DbOrTx): Promise<OutboxHold | null> {
  const [row] = rows<{ value: { since?: unknown; reason?: unknown } }>(
    await db.execute(sql`select value from site_settings where key = ${OUTBOX_HOLD_KEY}`),
  );
  return row ? { since: String(row.value.since ?? ''), reason: String(row.value.reason ?? '') } : null;
}

/** Whether the outbox is held, in one statement that also proves the database answers (the health probe). */
export async function isOutboxHeld(db: DbOrTx): Promise<boolean> {
  const [row] = rows<{ held: boolean }>(
    await db.execute(sql`select exists (select 1 from site_settings where key = ${OUTBOX_HOLD_KEY}) as held`),
  );
  return row?.held === true;
}

/** Takes the hold off; the hold it took off, or null when there was none. */
export async function releaseOutboxHold(db: DbOrTx): Promise<OutboxHold | null> {
  const [row] = rows<{ value: { since?: unknown; reason?: unknown } }>(
    await db.execute(sql`delete from site_settings where key = ${OUTBOX_HOLD_KEY} returning value`),
  );
  return row ? { since: String(row.value.since ?? ''), reason: String(row.value.reason ?? '') } : null;
}

/** How long a failing message keeps being retried before it waits for staff. */
export const OUTBOX_GIVE_UP_MS = 24 * 3600_000;
/** How often an idle worker looks for due messages (a change in this process wakes it at once). */
const POLL_MS = 1_000;
/** Messages claimed at a time; concurrent kinds are all delivered at once, so also the most in flight. */
const BATCH = 20;
/**
 * How long an expired claim is set aside before it is taken again (see setAsideExpired): 30 s, or
 * the lease when that is shorter (tests). The worker that delivered it retries recording it at
 * least four times as often, so a live one records it first once the database answers.
 */
const handoverFor = (leaseMs: number) => Math.min(30_000, leaseMs);
const markRetryMaxFor = (handoverMs: number) => Math.min(2_000, handoverMs / 4);

export interface OutboxOptions {
  /** How long a claimed message is held before another worker may take it (default 2 minutes). */
  readonly leaseMs?: number;
}

export interface Outbox {
  /**
   * Delivers `kind` messages; one handler per kind. `concurrent`: several may be delivered at once
   * (mail); otherwise one at a time, in order.
   */
  handle(kind: string, handler: OutboxHandler, options?: { readonly concurrent?: boolean }): void;
  enqueue(db: DbOrTx, entries: OutboxEntry | readonly OutboxEntry[]): Promise<void>;
  /** Wakes the worker after a commit that enqueued something (otherwise it looks within a second). */
  kick(): void;
  /** Delivers everything due now and resolves when done (tests, and the close of the app). */
  drain(): Promise<void>;
}

interface Claimed {
  id: number;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** When its day of retries began: enqueued, or last sent again by staff. */
  created_at: Date | string;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: Outbox;
  }
}

export default fp<OutboxOptions>(
  async (app, options) => {
    const leaseMs = options.leaseMs ?? 120_000;
    const handoverMs = handoverFor(leaseMs);
    const markRetryMaxMs = markRetryMaxFor(handoverMs);
    const handlers = new Map<string, { deliver: OutboxHandler; concurrent: boolean }>();
    let closing = false;
    /** Set once the app closes: a delivered message's record stops waiting for the database. */
    let stopped = false;
    let current: Promise<void> | null = null;
    let again = false;

    /**
     * A claim whose lease ran out without being settled is set aside before anyone takes it again:
     * its lease is cleared and it is due after handoverMs, while its attempt number, the fencing
     * token, stays the old claim's. A worker that delivered it and could not yet record that (the
     * database was away) still can, once the database answers; only after the handover does a new
     * claim (a new attempt number) lock that worker out and deliver again.
     */
    const setAsideExpired = async () => {
      const expired = rows<{ id: number; attempts: number }>(
        await app.db.execute(sql`
          update outbox_messages set lease_until = null, next_attempt_at = now() + ${`${handoverMs} milliseconds`}::interval,
            last_error = left('the worker that held it stopped answering before its lease ran out; taken again after a handover' || coalesce(' (' || last_error || ')', ''), 500)
          where status = 'pending' and lease_until < now()
          returning id, attempts`),
      );
      if (expired.length)
        app.log.warn(
          { outboxIds: expired.map((e) => e.id) },
          `outbox: ${expired.length} claims ran out without an answer; taken again after ${handoverMs / 1000} s unless their worker records them`,
        );
    };

    const claim = async (): Promise<Claimed[]> =>
      rows<Claimed>(
        await app.db.execute(sql`
          update outbox_messages set lease_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
          where id in (
            select id from outbox_messages
            where status = 'pending' and next_attempt_at <= now() and lease_until is null and kind in ${[...handlers.keys()]}
              and not exists (select 1 from site_settings where key = ${OUTBOX_HOLD_KEY})
            order by next_attempt_at, id
            limit ${BATCH}
            for update skip locked
          )
          returning id, kind, key, payload, attempts, coalesce(retried_at, created_at) as created_at`),
      );

    /**
     * Records delivered messages as sent, each if its claim is still this worker's (the attempt
     * number is the fencing token), in one statement. A database that is away is waited for as long
     * as this process runs: giving up would leave them to be delivered again after their lease.
     */
    const markSent = async (messages: readonly Claimed[]) => {
      if (messages.length === 0) return;
      const claims = sql.join(
        messages.map((m) => sql`(${m.id}::bigint, ${m.attempts}::int)`),
        sql`, `,
      );
      for (let attempt = 0; ; attempt += 1) {
        try {
          const marked = new Set(
            rows<{ id: number | string }>(
              await app.db.execute(sql`
                update outbox_messages o set status = 'sent', sent_at = now(), lease_until = null, last_error = null
                from (values ${claims}) as mine (id, attempts)
                where o.id = mine.id and o.attempts = mine.attempts and o.status = 'pending'
                returning o.id`),
            ).map((r) => Number(r.id)),
          );
          for (const message of messages.filter((m) => !marked.has(Number(m.id)))) {
            app.log.error(
              { outboxId: message.id, kind: message.kind, attempts: message.attempts },
              'outbox message delivered, but its claim was taken over before it could be recorded: it may be delivered twice',
            );
          }
          return;
        } catch (failure) {
          if (stopped) throw failure;
          if (attempt === 0)
            app.log.warn(
              { outboxIds: messages.map((m) => m.id), err: failure },
              'outbox messages delivered; recording them waits for the database',
            );
          await new Promise((resolve) => setTimeout(resolve, Math.min(markRetryMaxMs, 100 * 1.5 ** attempt)));
        }
      }
    };

    const settle = async (message: Claimed, error: unknown) => {
      const text = (error instanceof Error ? error.message : String(error)).slice(0, 500) || 'unknown error';
      const createdAt = new Date(message.created_at).getTime();
      const giveUp = error instanceof PermanentDeliveryError || Date.now() - createdAt > OUTBOX_GIVE_UP_MS;
      const waitMs = Math.round(backoffDelay(message.attempts - 1));
      await app.db.execute(sql`
        update outbox_messages set lease_until = null, last_error = ${text},
          status = ${giveUp ? 'failed' : 'pending'},
          next_attempt_at = now() + ${`${waitMs} milliseconds`}::interval
        where id = ${message.id} and attempts = ${message.attempts}`);
      app.log[giveUp ? 'error' : 'warn'](
        { outboxId: message.id, kind: message.kind, attempts: message.attempts, err: error },
        giveUp
          ? 'outbox message failed; it waits for staff'
          : `outbox message not delivered; retrying in ${waitMs} ms`,
      );
    };

    /** A claim not started in time goes back unclaimed (its attempt number stays spent). */
    const release = (message: Claimed) =>
      app.db.execute(
        sql`update outbox_messages set lease_until = null where id = ${message.id} and attempts = ${message.attempts} and status = 'pending'`,
      );

    /** Delivers one message; resolves whether it was delivered (a failure is settled here). */
    const deliverOne = async (message: Claimed, claimedAt: number): Promise<boolean> => {
      // The lease began before the claim was sent: with less than half of it left, a delivery could
      // outlast it and meet the next claim's, so it is not started.
      if (performance.now() - claimedAt > leaseMs / 2) {
        await release(message);
        return false;
      }
      const handler = handlers.get(message.kind);
      try {
        if (!handler) throw new Error(`no handler for ${message.kind}`);
        await handler.deliver(message.payload, {
          id: message.id,
          key: message.key,
          attempts: message.attempts,
        });
        return true;
      } catch (caught) {
        await settle(message, caught ?? new Error('unknown error'));
        return false;
      }
    };

    /**
     * Claims up to BATCH due messages at a time. Kinds registered as concurrent (mail) are delivered
     * all at once, at most BATCH in flight, and recorded together when the last of them is done;
     * the others (gateway calls, whose order can matter: an invoice is issued before it is voided)
     * one after another in their order, beside them, each recorded as soon as it is done.
     */
    const deliverDue = async () => {
      if (closing || handlers.size === 0) return;
      await setAsideExpired();
      for (;;) {
        if (closing) return;
        const claimedAt = performance.now();
        const batch = await claim();
        if (batch.length === 0) return;
        // An update's `returning` comes in no particular order: the order is that of enqueueing.
        const inOrder = batch
          .filter((m) => !handlers.get(m.kind)?.concurrent)
          .sort((a, b) => Number(a.id) - Number(b.id));
        const together = batch.filter((m) => handlers.get(m.kind)?.concurrent);
        const results = await Promise.allSettled([
          (async () => {
            for (const message of inOrder)
              if (await deliverOne(message, claimedAt)) await markSent([message]);
          })(),
          (async () => {
            // Every delivered one is recorded, even when another's failure could not be.
            const outcomes = await Promise.allSettled(
              together.map((message) => deliverOne(message, claimedAt)),
            );
            await markSent(
              together.filter((_, i) => outcomes[i]?.status === 'fulfilled' && outcomes[i].value),
            );
            const failed = outcomes.find((o) => o.status === 'rejected');
            if (failed) throw failed.reason;
          })(),
        ]);
        const failed = results.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
    };

    /** One pass at a time in this process; a kick during a pass runs one more. */
    const drain = (): Promise<void> => {
      if (current) {
        again = true;
        return current;
      }
      current = (async () => {
        do {
          again = false;
          try {
            await deliverDue();
          } catch (error) {
            // The database is away: the next poll tries again.
            app.log.warn({ err: error }, 'outbox worker could not reach the database');
          }
        } while (again && !closing);
      })().finally(() => {
        current = null;
      });
      return current;
    };

    const outbox: Outbox = {
      handle(kind, handler, handleOptions) {
        if (handlers.has(kind)) throw new Error(`outbox handler for ${kind} registered twice`);
        handlers.set(kind, { deliver: handler, concurrent: handleOptions?.concurrent ?? false });
      },
      enqueue: enqueueOutbox,
      kick() {
        if (!closing) void drain();
      },
      drain,
    };
    app.decorate('outbox', outbox);

    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      const hold = await readOutboxHold(app.db).catch(() => null);
      if (hold) {
        app.log.warn(
          { outboxHold: hold },
          `OUTBOX HELD since ${hold.since} (${hold.reason}): no mail or gateway call is sent until the owner releases it (console 寄送狀態, or npm run outbox:release)`,
        );
      }
      timer = setInterval(() => void drain(), POLL_MS);
      timer.unref();
      void drain();
    });
    app.addHook('preClose', async () => {
      closing = true;
      if (timer) clearInterval(timer);
      // A delivery under way may finish, within bounds: against a database or server that hangs,
      // the message keeps its lease and is taken again after it, never lost.
      const bound = new Promise<void>((resolve) =>
        setTimeout(resolve, app.config.isTest ? 1_000 : 10_000).unref(),
      );
      await Promise.race([current, bound]);
      stopped = true;
    });
  },
  { name: 'outbox', dependencies: ['config', 'db'] },
);
