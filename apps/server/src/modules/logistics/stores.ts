import type { CvsBrandCode } from '@shop/shared/checkout';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

export type { KnownStore } from './repo.ts';

/**
 * The stores orders and the address book may use: those a store map has named (map.ts records
 * them). A store id nobody picked on a map is not a store this shop ships to.
 */
export function knownStore(db: DbOrTx, brand: CvsBrandCode, id: string): Promise<repo.KnownStore | null> {
  return repo.findStore(db, brand, id.trim());
}

/** Demo data only: a store as if a map had named it (the seed's saved addresses and orders). */
export function rememberStore(db: DbOrTx, store: repo.KnownStore): Promise<void> {
  return repo.rememberStore(db, store);
}
