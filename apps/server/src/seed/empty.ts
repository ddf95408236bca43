import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rows } from '../db/rows.ts';

/**
 * Tables whose rows mean "this shop has data of its own". Demo data loads only when all are
 * empty, so it can never overwrite or mix into a real shop.
 */
const OWNED_TABLES = [
  'users',
  'redirects',
  'categories',
  'products',
  'storage_objects',
  'content_items',
] as const;

/**
 * Whether the demo data may load. Its own file, apart from the demo data: the server asks this at
 * start without loading any of the drawing code (decision 023).
 */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const checks = OWNED_TABLES.map((t) => `(select exists(select 1 from ${t})) as "${t}"`).join(', ');
  const result = rows<Record<string, boolean>>(await db.execute(sql.raw(`select ${checks}`)));
  const row = result[0] ?? {};
  return OWNED_TABLES.every((t) => row[t] === false);
}
