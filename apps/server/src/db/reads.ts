import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

type Results<T extends readonly (() => PromiseLike<unknown>)[]> = {
  -readonly [K in keyof T]: Awaited<ReturnType<T[K]>>;
};

/**
 * Several independent reads: at once on the pool (each on a connection of its own), one after
 * another inside a transaction, whose one connection takes one query at a time. node-postgres
 * queues a query sent while another runs on the same connection, warns that its version 9 will
 * refuse it, and gains nothing by it.
 */
export async function readTogether<const T extends readonly (() => PromiseLike<unknown>)[]>(
  db: DbOrTx,
  reads: T,
): Promise<Results<T>> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as Results<T>;
  const out: unknown[] = [];
  for (const read of reads) out.push(await read());
  return out as Results<T>;
}
