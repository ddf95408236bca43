import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows } from '../src/db/rows.ts';
import { outboxMessages } from '../src/db/schema.ts';
import { PermanentDeliveryError } from '../src/plugins/outbox.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { setRole } from './fixtures.ts';
import { ORIGIN } from './shop.ts';

/** The outbox through the real app on a real database: what is written with a change, and how it is delivered. */
describe.skipIf(!dbAvailable())('the durable outbox', () => {
  let ctx: TestContext;
  const delivered: string[] = [];
  /** What the next tries of `flaky` messages answer, in order (then success). */
  const flakyAnswers: Array<Error | null> = [];
  beforeAll(async () => {
    ctx = await createTestApp();
    ctx.app.outbox.handle('test-note', async (payload) => {
      delivered.push(String(payload.text));
    });
    ctx.app.outbox.handle('test-flaky', async (payload) => {
      const answer = flakyAnswers.shift();
      if (answer) throw answer;
      delivered.push(String(payload.text));
    });
  });
  afterAll(async () => ctx.close());

  const row = async (key: string) =>
    (await ctx.database.db.select().from(outboxMessages).where(eq(outboxMessages.key, key)))[0];
  /** Makes a waiting message due now (instead of waiting out its backoff) and delivers. */
  const dueNow = async (key: string) => {
    await ctx.database.db
      .update(outboxMessages)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outboxMessages.key, key));
    await ctx.app.outbox.drain();
  };

  it('sends what a committed change wrote, once, and nothing of a change that rolled back', async () => {
    await ctx.database.db.transaction(async (tx) => {
      await ctx.app.outbox.enqueue(tx, {
        kind: 'test-note',
        key: 'note-committed',
        payload: { text: 'committed' },
      });
    });
    await ctx.database.db
      .transaction(async (tx) => {
        await ctx.app.outbox.enqueue(tx, {
          kind: 'test-note',
          key: 'note-rolled-back',
          payload: { text: 'rolled back' },
        });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await ctx.app.outbox.drain();
    await ctx.app.outbox.drain();
    expect(delivered.filter((t) => t === 'committed')).toEqual(['committed']);
    expect(delivered).not.toContain('rolled back');
    expect(await row('note-rolled-back')).toBeUndefined();
    const sent = await row('note-committed');
    expect(sent?.status).toBe('sent');
    expect(sent?.attempts).toBe(1);
    expect(sent?.sentAt).not.toBeNull();
  });

  it('keeps one message per key: the same change announced twice is sent once', async () => {
    for (let i = 0; i < 3; i += 1)
      await ctx.app.outbox.enqueue(ctx.database.db, {
        kind: 'test-note',
        key: 'note-once',
        payload: { text: 'once' },
      });
    await ctx.app.outbox.drain();
    expect(delivered.filter((t) => t === 'once')).toHaveLength(1);
  });

  it('retries a failure after 1 s, then 1.5 s, and records the error; delivered once it goes through', async () => {
    flakyAnswers.push(new Error('connect ECONNREFUSED 127.0.0.1:25'), new Error('greeting never received'));
    await ctx.app.outbox.enqueue(ctx.database.db, {
      kind: 'test-flaky',
      key: 'flaky-1',
      payload: { text: 'flaky' },
    });
    await ctx.app.outbox.drain();
    let waiting = await row('flaky-1');
    expect(waiting).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'connect ECONNREFUSED 127.0.0.1:25',
      leaseUntil: null,
    });
    const firstWait = waiting!.nextAttemptAt.getTime() - Date.now();
    expect(firstWait).toBeGreaterThan(500);
    expect(firstWait).toBeLessThanOrEqual(1_000);
    // Not due yet: a pass now leaves it alone.
    await ctx.app.outbox.drain();
    expect((await row('flaky-1'))?.attempts).toBe(1);

    await dueNow('flaky-1');
    waiting = await row('flaky-1');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 2, lastError: 'greeting never received' });
    const secondWait = waiting!.nextAttemptAt.getTime() - Date.now();
    expect(secondWait).toBeGreaterThan(1_000);
    expect(secondWait).toBeLessThanOrEqual(1_500);

    await dueNow('flaky-1');
    expect(await row('flaky-1')).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(delivered.filter((t) => t === 'flaky')).toHaveLength(1);
  });

  it('fails at once on a refusal that will not change, and waits for staff', async () => {
    flakyAnswers.push(new PermanentDeliveryError('550 5.1.1 mailbox unavailable'));
    await ctx.app.outbox.enqueue(ctx.database.db, {
      kind: 'test-flaky',
      key: 'flaky-refused',
      payload: { text: 'refused' },
    });
    await ctx.app.outbox.drain();
    expect(await row('flaky-refused')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: '550 5.1.1 mailbox unavailable',
    });
    await dueNow('flaky-refused');
    expect((await row('flaky-refused'))?.attempts).toBe(1);
  });

  it('takes a message again only once the lease of a worker that died holding it has run out, and a handover after it', async () => {
    await ctx.app.outbox.enqueue(ctx.database.db, {
      kind: 'test-note',
      key: 'held',
      payload: { text: 'held' },
    });
    // A worker elsewhere claimed it and died: its lease still runs.
    await ctx.database.db
      .update(outboxMessages)
      .set({ leaseUntil: sql`now() + interval '1 minute'`, attempts: 1 })
      .where(eq(outboxMessages.key, 'held'));
    await ctx.app.outbox.drain();
    expect(delivered).not.toContain('held');
    await ctx.database.db
      .update(outboxMessages)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(outboxMessages.key, 'held'));
    // Run out: set aside for the handover, still under the dead worker's attempt number.
    await ctx.app.outbox.drain();
    expect(delivered).not.toContain('held');
    const aside = await row('held');
    expect(aside).toMatchObject({ status: 'pending', attempts: 1, leaseUntil: null });
    expect(aside!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    await dueNow('held');
    expect(delivered.filter((t) => t === 'held')).toHaveLength(1);
    expect(await row('held')).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('never sends again what a worker delivered and records late: its run-out claim is set aside, and it may still record it', async () => {
    await ctx.app.outbox.enqueue(ctx.database.db, {
      kind: 'test-note',
      key: 'late',
      payload: { text: 'late' },
    });
    // Another worker claimed it, delivered it, and is still trying to record that (its database
    // was away past its lease).
    await ctx.database.db
      .update(outboxMessages)
      .set({ leaseUntil: sql`now() - interval '1 second'`, attempts: 1 })
      .where(eq(outboxMessages.key, 'late'));
    await ctx.app.outbox.drain();
    expect(delivered).not.toContain('late');
    // The database is back; that worker records its delivery under its own attempt number.
    const marked = await ctx.database.db.execute(
      sql`update outbox_messages set status = 'sent', sent_at = now(), lease_until = null where key = 'late' and attempts = 1 and status = 'pending' returning id`,
    );
    expect(rows(marked)).toHaveLength(1);
    await dueNow('late');
    expect(delivered).not.toContain('late');
    expect(await row('late')).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('keeps recording a delivered message while the database refuses, and sends it once', async () => {
    const dialect = new PgDialect();
    const execute = ctx.app.db.execute.bind(ctx.app.db);
    let refused = 0;
    // The database refuses the first 10 tries to record the delivery (the shop used to give up after 9).
    const spy = vi.spyOn(ctx.app.db, 'execute').mockImplementation(((query: SQL) => {
      if (/set status = 'sent'/.test(dialect.sqlToQuery(query).sql) && refused < 10) {
        refused += 1;
        return Promise.reject(new Error('Connection terminated unexpectedly'));
      }
      return execute(query);
    }) as typeof ctx.app.db.execute);
    try {
      await ctx.app.outbox.enqueue(ctx.database.db, {
        kind: 'test-note',
        key: 'recorded-late',
        payload: { text: 'recorded late' },
      });
      await ctx.app.outbox.drain();
    } finally {
      spy.mockRestore();
    }
    expect(refused).toBe(10);
    expect(await row('recorded-late')).toMatchObject({ status: 'sent', attempts: 1 });
    await ctx.app.outbox.drain();
    expect(delivered.filter((t) => t === 'recorded late')).toHaveLength(1);
  }, 60_000);

  it('does not let a worker whose claim was taken over record the message as sent', async () => {
    ctx.app.outbox.handle('test-overtaken', async (payload, message) => {
      // While this worker delivers, its claim is taken over (a new attempt number).
      await ctx.database.db
        .update(outboxMessages)
        .set({ attempts: message.attempts + 1, leaseUntil: sql`now() + interval '1 minute'` })
        .where(eq(outboxMessages.id, message.id));
      delivered.push(String(payload.text));
    });
    await ctx.app.outbox.enqueue(ctx.database.db, {
      kind: 'test-overtaken',
      key: 'overtaken',
      payload: { text: 'overtaken' },
    });
    await ctx.app.outbox.drain();
    expect(await row('overtaken')).toMatchObject({ status: 'pending', attempts: 2, sentAt: null });
    // The claim that took it over is only pretended: it goes, so the console's counts below hold.
    await ctx.database.db.delete(outboxMessages).where(eq(outboxMessages.key, 'overtaken'));
  });

  it('delivers mail-like kinds several at a time (at most a batch of 20 in flight), and the others one at a time in their order', async () => {
    const track = () => {
      const state = { inFlight: 0, most: 0, order: [] as string[] };
      const handler = async (payload: Record<string, unknown>) => {
        state.inFlight += 1;
        state.most = Math.max(state.most, state.inFlight);
        // Long enough for the others of a batch to start too, if they are started at all.
        await new Promise((resolve) => setTimeout(resolve, 50));
        state.order.push(String(payload.text));
        state.inFlight -= 1;
      };
      return { state, handler };
    };
    const together = track();
    const ordered = track();
    ctx.app.outbox.handle('test-together', together.handler, { concurrent: true });
    ctx.app.outbox.handle('test-ordered', ordered.handler);
    const texts = Array.from({ length: 25 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    await ctx.app.outbox.enqueue(
      ctx.database.db,
      texts.map((text) => ({ kind: 'test-together', payload: { text } })),
    );
    await ctx.app.outbox.drain();
    await ctx.app.outbox.enqueue(
      ctx.database.db,
      texts.map((text) => ({ kind: 'test-ordered', payload: { text } })),
    );
    await ctx.app.outbox.drain();
    expect({ together: together.state.most, ordered: ordered.state.most }).toEqual({
      together: 20,
      ordered: 1,
    });
    expect([...together.state.order].sort()).toEqual(texts);
    expect(ordered.state.order).toEqual(texts);
  });

  it('gives up after a day of failures, keeping the last error', async () => {
    flakyAnswers.push(new Error('still down'));
    await ctx.app.outbox.enqueue(ctx.database.db, {
      kind: 'test-flaky',
      key: 'flaky-old',
      payload: { text: 'old' },
    });
    await ctx.database.db
      .update(outboxMessages)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(outboxMessages.key, 'flaky-old'));
    await ctx.app.outbox.drain();
    expect(await row('flaky-old')).toMatchObject({ status: 'failed', lastError: 'still down' });
  });

  describe('in the console', () => {
    const cookies: Record<string, string> = {};
    beforeAll(async () => {
      for (const role of ['owner', 'staff', 'viewer'] as const) {
        cookies[role] = (await signIn(ctx.app, `${role}-outbox@example.com`)).cookie;
        await setRole(ctx.database, `${role}-outbox@example.com`, role);
      }
    });
    const call = (method: 'GET' | 'POST', url: string, cookie: string) =>
      ctx.app.inject({
        method,
        url,
        headers: { cookie, origin: ORIGIN },
        ...(method === 'POST' ? { payload: {} } : {}),
      });

    it('lists what failed first, then what waits, with the error and the counts; sent ones on their own', async () => {
      const res = await call('GET', '/api/admin/outbox', cookies.viewer!);
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        items: Array<{ id: number; status: string; lastError: string | null }>;
        counts: { pending: number; failed: number };
      };
      expect(body.items.map((i) => i.status)).toEqual(['failed', 'failed']);
      // The oldest first: the one that gave up after a day, then the refused one.
      expect(body.items.map((i) => i.lastError)).toEqual(['still down', '550 5.1.1 mailbox unavailable']);
      expect(body.counts).toEqual({ pending: 0, failed: 2 });
      const sent = (await call('GET', '/api/admin/outbox?status=sent', cookies.viewer!)).json() as {
        items: Array<{ status: string }>;
      };
      expect(sent.items.length).toBeGreaterThan(0);
      expect(sent.items.every((i) => i.status === 'sent')).toBe(true);
      expect((await call('GET', '/api/admin/outbox?status=lost', cookies.viewer!)).statusCode).toBe(400);
    });

    it('sends a failed one again when staff ask (not a viewer), and never a sent one', async () => {
      const failed = await row('flaky-refused');
      expect((await call('POST', `/api/admin/outbox/${failed!.id}/retry`, cookies.viewer!)).statusCode).toBe(
        403,
      );
      const res = await call('POST', `/api/admin/outbox/${failed!.id}/retry`, cookies.staff!);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'pending' });
      await ctx.app.outbox.drain();
      expect(await row('flaky-refused')).toMatchObject({ status: 'sent', attempts: 2 });
      expect(delivered.filter((t) => t === 'refused')).toHaveLength(1);

      const sent = await row('note-committed');
      const again = await call('POST', `/api/admin/outbox/${sent!.id}/retry`, cookies.owner!);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('這則已經送出，不會再寄一次。');
      expect((await call('POST', '/api/admin/outbox/999999/retry', cookies.owner!)).statusCode).toBe(404);
    });
  });
});

describe.skipIf(!dbAvailable())('the outbox with a short lease', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ OUTBOX_LEASE_SECONDS: '2' });
  });
  afterAll(async () => ctx.close());

  it('does not start a delivery with less than half of its lease left: it gives the claim back, and a later claim delivers it', async () => {
    const deliveries: Array<{ text: string; attempts: number }> = [];
    ctx.app.outbox.handle('test-slow', async (payload, message) => {
      deliveries.push({ text: String(payload.text), attempts: message.attempts });
      // The first takes more than half of the 2 s lease; the second of the same claim must wait.
      if (payload.text === 'first') await new Promise((resolve) => setTimeout(resolve, 1_200));
    });
    await ctx.app.outbox.enqueue(ctx.database.db, [
      { kind: 'test-slow', key: 'slow-first', payload: { text: 'first' } },
      { kind: 'test-slow', key: 'slow-second', payload: { text: 'second' } },
    ]);
    await ctx.app.outbox.drain();
    await ctx.app.outbox.drain();
    expect(deliveries).toEqual([
      { text: 'first', attempts: 1 },
      { text: 'second', attempts: 2 },
    ]);
    const [second] = await ctx.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.key, 'slow-second'));
    expect(second).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
