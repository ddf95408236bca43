import { desc, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { mailOutbox, outboxMessages } from '../src/db/schema.ts';

/** The newest outbox mail to an address, waiting briefly for mail sent in the background. */
export async function latestMail(database: Database, to: string, kind?: string, timeoutMs = 3000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, to))
      .orderBy(desc(mailOutbox.id));
    const found = rows.find((r) => !kind || r.meta.kind === kind);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no ${kind ?? ''} mail to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits (briefly) until the outbox holds nothing still to be delivered (mail, and the gateway calls
 * that send mail of their own when done), so counts are of everything asked for so far.
 */
export async function mailSettled(database: Database, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await database.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(eq(outboxMessages.status, 'pending'));
    if (waiting.length === 0) return;
    if (Date.now() > until) throw new Error(`${waiting.length} message(s) still waiting in the outbox`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** How many mails went to an address, once every mail asked for so far has been sent. */
export async function mailCount(database: Database, to: string): Promise<number> {
  await mailSettled(database);
  return (
    await database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.toAddress, to))
  ).length;
}

export function codeFrom(link: string | undefined): string {
  const code = link ? new URL(link).searchParams.get('code') : null;
  if (!code) throw new Error(`no code in ${link}`);
  return code;
}
