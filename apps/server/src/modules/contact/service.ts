import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

export interface NewMessage {
  readonly name: string;
  readonly email: string;
  readonly phone: string | null;
  readonly subject: string;
  readonly message: string;
  readonly jobSlug: string | null;
  readonly ip: string;
}

/** Stores a message under the next reference number of the day (`C` + Taipei date + 5 digits) and returns that number. */
export async function storeMessage(db: DbOrTx, taipeiDate: string, message: NewMessage): Promise<string> {
  const seq = await repo.nextMessageNumber(db);
  const referenceNo = `C${taipeiDate}${seq.padStart(5, '0')}`;
  await repo.insertMessage(db, { referenceNo, ...message });
  return referenceNo;
}

/** The contact messages a member sent from their address (the data export). */
export async function messagesForExport(db: DbOrTx, email: string) {
  return (await repo.messagesFrom(db, email)).map((m) => ({ ...m, createdAt: m.createdAt.toISOString() }));
}

/** Takes the member out of the messages they sent, in the caller's transaction. */
export function forgetSender(db: DbOrTx, email: string): Promise<void> {
  return repo.anonymiseMessagesFrom(db, email);
}
