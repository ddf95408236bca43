import type { CvsBrandCode } from '@shop/shared/checkout';
import { isOutlying, placeOfAddress } from '@shop/shared/data/tw-districts';
import type { DbOrTx } from '../../db/client.ts';
import { FormPostError, type FormPost } from '../../lib/form-post.ts';
import {
  STORE_LIST_TYPES,
  logisticsHost,
  parseStoreList,
  storeListFields,
  type ListedStore,
  type LogisticsSettings,
} from './ecpay.ts';
import * as repo from './repo.ts';

export type { KnownStore } from './repo.ts';

/**
 * The stores orders and the address book may use: those a store map has named, as the logistics
 * provider's own store list (ECPay's GetStoreList, or the sandbox's) describes them. The map's reply
 * is unsigned and comes through the shopper's browser, so nothing in it but the store id is taken:
 * name, address, phone and the outlying-island flag (and so the surcharge) come from the list.
 */
export function knownStore(db: DbOrTx, brand: CvsBrandCode, id: string): Promise<repo.KnownStore | null> {
  return repo.findStore(db, brand, id.trim());
}

/** The owner's (seed's) own store data, written as trusted: the demo's saved addresses and orders. */
export function rememberStore(db: DbOrTx, store: repo.KnownStore): Promise<void> {
  return repo.rememberStore(db, store);
}

export interface StoreListDeps {
  readonly db: DbOrTx;
  readonly settings: LogisticsSettings;
  readonly publicUrl: string;
  readonly post: FormPost;
}

/** ECPay refreshes its store list once a day (20:00); an hour-old copy is current enough. */
const LIST_TTL_MS = 60 * 60_000;
const lists = new Map<string, { readonly at: number; readonly stores: ReadonlyMap<string, ListedStore> }>();

class StoreListUnavailable extends Error {}

/** A chain's stores as the provider lists them, fetched at most once an hour per merchant and chain. */
async function providerList(
  deps: StoreListDeps,
  brand: CvsBrandCode,
): Promise<ReadonlyMap<string, ListedStore>> {
  const url = `${logisticsHost(deps.settings, deps.publicUrl)}/Helper/GetStoreList`;
  const key = `${url} ${deps.settings.merchantId} ${brand}`;
  const cached = lists.get(key);
  if (cached && Date.now() - cached.at < LIST_TTL_MS) return cached.stores;
  const listed = parseStoreList(
    await deps.post(url, storeListFields(deps.settings, brand)),
    STORE_LIST_TYPES[brand],
  );
  if (!listed) throw new StoreListUnavailable('GetStoreList gave no list');
  const stores = new Map(listed.map((s) => [s.id, s]));
  lists.set(key, { at: Date.now(), stores });
  return stores;
}

/**
 * The store a map named, confirmed with the provider's list and kept (refreshed) as the list
 * describes it; null when the list has no such store. When the list cannot be had just now, a store
 * confirmed before is still good; otherwise 'unavailable'.
 */
export async function confirmStore(
  deps: StoreListDeps,
  brand: CvsBrandCode,
  id: string,
): Promise<repo.KnownStore | null | 'unavailable'> {
  let listed: ListedStore | undefined;
  try {
    listed = (await providerList(deps, brand)).get(id);
  } catch (error) {
    if (!(error instanceof FormPostError || error instanceof StoreListUnavailable)) throw error;
    return (await repo.findStore(deps.db, brand, id)) ?? 'unavailable';
  }
  if (!listed) return null;
  // The island flag follows the store's address, by the rule home addresses are charged by.
  const place = placeOfAddress(listed.address);
  const store = { brand, ...listed, outlying: place !== null && isOutlying(place.city, place.district) };
  await repo.rememberStore(deps.db, store);
  return store;
}
