import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { CvsBrandCode } from '@shop/shared/checkout';
import type { DbOrTx } from '../../db/client.ts';
import { cvsMapRequests, cvsStores } from '../../db/schema.ts';

export interface KnownStore {
  readonly brand: CvsBrandCode;
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly phone: string;
  readonly outlying: boolean;
}

export async function findStore(db: DbOrTx, brand: CvsBrandCode, id: string): Promise<KnownStore | null> {
  const [row] = await db
    .select()
    .from(cvsStores)
    .where(and(eq(cvsStores.brand, brand), eq(cvsStores.storeId, id)))
    .limit(1);
  return row
    ? {
        brand: row.brand,
        id: row.storeId,
        name: row.name,
        address: row.address,
        phone: row.phone,
        outlying: row.outlying,
      }
    : null;
}

/** Keeps a store as the provider's list (or the owner) describes it. */
export async function rememberStore(db: DbOrTx, store: KnownStore): Promise<void> {
  const values = { name: store.name, address: store.address, phone: store.phone, outlying: store.outlying };
  await db
    .insert(cvsStores)
    .values({ brand: store.brand, storeId: store.id, ...values })
    .onConflictDoUpdate({
      target: [cvsStores.brand, cvsStores.storeId],
      set: { ...values, updatedAt: sql`now()` },
    });
}

export type MapRequestRow = typeof cvsMapRequests.$inferSelect;

export async function insertMapRequest(
  db: DbOrTx,
  values: typeof cvsMapRequests.$inferInsert,
): Promise<void> {
  await db.insert(cvsMapRequests).values(values);
}

export async function mapRequest(db: DbOrTx, token: string): Promise<MapRequestRow | null> {
  const [row] = await db.select().from(cvsMapRequests).where(eq(cvsMapRequests.token, token)).limit(1);
  return row ?? null;
}

/** Sets a trip's store once; false when the trip already has one. */
export async function chooseStore(db: DbOrTx, token: string, storeId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(cvsMapRequests)
    .set({ storeId, chosenAt: at })
    .where(and(eq(cvsMapRequests.token, token), isNull(cvsMapRequests.storeId)))
    .returning({ token: cvsMapRequests.token });
  return rows.length > 0;
}

/** Map trips that ended more than a day ago: nothing reads them any more. */
export async function deleteOldMapRequests(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(cvsMapRequests).where(lt(cvsMapRequests.expiresAt, before));
}
