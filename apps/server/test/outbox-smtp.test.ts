import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl, dbAvailable, dbEngine } from './helpers.ts';
import { freePort } from './redis-server.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

// A killed process must leave its database behind intact and shared with the next one: PostgreSQL.
const onPostgres = dbEngine() === 'postgres';
if (!onPostgres)
  console.warn(
    '[outbox-smtp] needs PostgreSQL (a killed process and its successor share the database); skipped on the embedded database.',
  );

type Mode = 'accept' | 'stall';

/**
 * A real SMTP server (smtp-server, nodemailer's own), which can be stopped, restarted, and told to
 * hold the next message without answering (a delivery in progress), counting what it accepted.
 */
function mailServer() {
  let server: SMTPServer | null = null;
  let mode: Mode = 'accept';
  let stalled: () => void = () => undefined;
  const accepted: Array<{ messageId: string; to: string; subject: string; replyTo: string }> = [];
  /** A header's value: folded lines joined, MIME encoded-words (B and Q) decoded. */
  const header = (raw: string, name: string) => {
    const head = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const value = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
    return value
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
        enc.toLowerCase() === 'b'
          ? Buffer.from(text, 'base64').toString('utf8')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9a-f]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
              'latin1',
            ).toString('utf8'),
      );
  };
  return {
    accepted,
    port: 0,
    setMode(next: Mode) {
      mode = next;
    },
    /** Resolves when a message has been sent to the server and is being held. */
    nextStall: () => new Promise<void>((resolve) => (stalled = resolve)),
    async start(port: number) {
      this.port = port;
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            // Held: never answered, so the message is not accepted and the sender keeps waiting.
            // Only a contact message is held (the shop may send its morning digest meanwhile).
            if (mode === 'stall' && header(raw, 'Subject').includes('客服來信')) return stalled();
            accepted.push({
              messageId: header(raw, 'Message-ID'),
              to: session.envelope.rcptTo.map((r) => r.address).join(','),
              subject: header(raw, 'Subject'),
              replyTo: header(raw, 'Reply-To'),
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}

describe.skipIf(!dbAvailable() || !onPostgres)(
  'the outbox with a real SMTP server that stops, and a worker killed mid-delivery',
  () => {
    let url = '';
    const smtp = mailServer();
    const servers: ServerProcess[] = [];
    let db: pg.Client;
    beforeAll(async () => {
      url = await createTestDatabaseUrl();
      db = new pg.Client({ connectionString: url });
      await db.connect();
      smtp.port = await freePort();
    });
    afterAll(async () => {
      for (const s of servers) await s.dispose();
      await smtp.stop();
      await db.end();
    });

    const outbox = async () =>
      (
        await db.query<{ key: string; status: string; attempts: number; last_error: string | null }>(
          `select key, status, attempts, last_error from outbox_messages where kind = 'mail' and payload->'meta'->>'kind' = 'contact' order by id`,
        )
      ).rows;
    const until = async (what: string, ok: () => Promise<boolean>, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!(await ok())) {
        if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const start = async () => {
      const server = await startServerProcess({
        DATABASE_URL: url,
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SHOP_NOTIFY_EMAIL: 'service@shop.example',
        OUTBOX_LEASE_SECONDS: '3',
      });
      servers.push(server);
      return server;
    };

    it('every message is delivered exactly once in the end, none lost', async () => {
      // 1. SMTP is down: three contact messages are taken, stored, and their mails wait.
      const first = await start();
      const sent: string[] = [];
      for (const [i, name] of ['王小明', '陳美玲', '林志豪'].entries()) {
        const res = await fetch(`${first.url}/api/contact`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: first.url.replace('127.0.0.1', 'localhost'),
          },
          body: JSON.stringify({
            name,
            email: `writer${i}@example.com`,
            phone: '',
            subject: '商品諮詢',
            message: '請問東方美人適合冷泡嗎？謝謝。',
            consent: true,
            website: '',
            startedAt: Date.now() - 60_000,
          }),
        });
        expect(res.status).toBe(200);
        sent.push(((await res.json()) as { referenceNo: string }).referenceNo);
      }
      await until('each mail tried and refused', async () =>
        (await outbox()).every((m) => m.attempts >= 1 && m.last_error !== null),
      );
      expect((await outbox()).map((m) => m.status)).toEqual(['pending', 'pending', 'pending']);
      expect((await outbox())[0]!.last_error).toMatch(/ECONNREFUSED/);

      // 2. SMTP comes back, but holds the first message it gets; the worker is killed while it waits.
      smtp.setMode('stall');
      const held = smtp.nextStall();
      await smtp.start(smtp.port);
      await held;
      first.child.kill('SIGKILL');
      await first.exited();
      expect(smtp.accepted.filter((m) => m.subject.includes('客服來信'))).toEqual([]);

      // 3. Another instance takes over once the dead worker's lease has run out; SMTP now answers.
      smtp.setMode('accept');
      await start();
      await until('all mail sent', async () => (await outbox()).every((m) => m.status === 'sent'));

      // The contact messages' mails (a morning digest may travel too, depending on the hour).
      const contact = smtp.accepted.filter((m) => m.subject.includes('客服來信'));
      expect(contact).toHaveLength(3);
      expect(new Set(contact.map((m) => m.messageId)).size).toBe(3);
      for (const [i, referenceNo] of sent.entries()) {
        // The shop's mail about it (the sender's acknowledgement names the reference too).
        const mails = contact.filter((m) => m.subject.includes(referenceNo));
        expect(mails).toHaveLength(1);
        expect(mails[0]).toMatchObject({ to: 'service@shop.example', replyTo: `writer${i}@example.com` });
      }
      // The held one was tried once more than the others' first successful try needed.
      expect(Math.max(...(await outbox()).map((m) => m.attempts))).toBeGreaterThanOrEqual(2);
    }, 120_000);
  },
);
