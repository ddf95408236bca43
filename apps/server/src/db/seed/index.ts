import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { rows } from '../migrate.ts';
import { seedRedirects } from './redirects.ts';

/**
 * Tables whose rows mean "this shop has data of its own". Demo data loads only when all are
 * empty, so it can never overwrite or mix into a real shop.
 */
const OWNED_TABLES = ['users', 'redirects'] as const;

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const checks = OWNED_TABLES.map((t) => `(select exists(select 1 from ${t})) as "${t}"`).join(', ');
  const result = rows<Record<string, boolean>>(await db.execute(sql.raw(`select ${checks}`)));
  const row = result[0] ?? {};
  return OWNED_TABLES.every((t) => row[t] === false);
}

export interface SeedResult {
  readonly seeded: boolean;
  readonly summary: string[];
}

/** Loads the demo shop in one transaction, only into an empty database. */
export async function seedDemoData(db: Db): Promise<SeedResult> {
  if (!(await isDatabaseEmpty(db))) return { seeded: false, summary: [] };
  const summary: string[] = [];
  await db.transaction(async (tx) => {
    summary.push(await seedRedirects(tx));
  });
  return { seeded: true, summary };
}
