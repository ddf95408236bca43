import type { Db } from '../db/client.ts';
import type { ObjectStore } from '../modules/storage/backends.ts';
import { renderDemoImages, seedCatalog } from './catalog.ts';
import { seedRedirects } from './redirects.ts';
import { seedMembers } from './members.ts';
import { seedStaff } from './staff.ts';
import { seedStorefront } from './storefront.ts';
import { renderContentAssets, seedContent } from './content.ts';
import { isDatabaseEmpty } from './empty.ts';

export { isDatabaseEmpty };

export interface SeedResult {
  readonly seeded: boolean;
  readonly summary: string[];
}

/**
 * Loads the demo shop in one transaction, only into an empty database. Pictures are drawn first,
 * outside the transaction (CPU work); their files are written by the storage service.
 */
export async function seedDemoData(
  db: Db,
  store: ObjectStore,
  publicUrl = 'http://localhost:3000',
): Promise<SeedResult> {
  if (!(await isDatabaseEmpty(db))) return { seeded: false, summary: [] };
  const images = await renderDemoImages();
  const assets = await renderContentAssets();
  // The body may run again after a conflict, so it builds its summary afresh each time.
  const summary = await db.transaction(async (tx) => [
    await seedCatalog(tx, store, images),
    await seedContent(tx, store, assets),
    await seedRedirects(tx),
    await seedMembers(tx, publicUrl),
    await seedStaff(tx),
    await seedStorefront(tx),
  ]);
  return { seeded: true, summary };
}
