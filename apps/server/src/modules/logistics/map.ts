import { randomInt } from 'node:crypto';
import { CVS_BRAND_NAMES } from '@shop/shared/checkout';
import {
  CVS_MAP_PARAM,
  CVS_MAP_TTL_MS,
  cvsBrandsFor,
  cvsMapReturnPath,
  type CvsMapForm,
  type CvsMapFormBody,
  type CvsStoreChoice,
} from '@shop/shared/logistics';
import type { Db } from '../../db/client.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { logisticsSubType, mapForm, MapReply, type LogisticsSettings } from './ecpay.ts';
import * as repo from './repo.ts';
import { confirmStore } from './stores.ts';
import type { FormPost } from '../../lib/form-post.ts';

/**
 * Choosing a pickup store on the map (docs/decisions/013-ecpay-logistics.md): a trip starts with a
 * token that only its member can read back; the map's reply, unsigned and cookieless, is accepted
 * once, only for a known token that has not expired, and names (by id) the store the order or
 * address will use.
 */

export interface MapDeps {
  readonly db: Db;
  readonly settings: LogisticsSettings;
  readonly publicUrl: string;
  readonly now?: () => Date;
}

const clock = (deps: MapDeps) => (deps.now ? deps.now() : new Date());
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 20 characters (MerchantTradeNo's limit) of 62: about 119 bits, never guessed. */
const newToken = () => Array.from({ length: 20 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export const MAP_REPLY_PATH = '/api/logistics/map-reply';

export async function startMapTrip(deps: MapDeps, userId: string, body: CvsMapFormBody): Promise<CvsMapForm> {
  if (!cvsBrandsFor(deps.settings.type).includes(body.brand)) {
    const message = `${CVS_BRAND_NAMES[body.brand]}目前不提供取貨，請選擇其他超商。`;
    throw new BadRequestError(message, { brand: message });
  }
  const now = clock(deps);
  const token = newToken();
  await repo.insertMapRequest(deps.db, {
    token,
    userId,
    brand: body.brand,
    returnTo: cvsMapReturnPath(body.returnTo, body.orderNo),
    expiresAt: new Date(now.getTime() + CVS_MAP_TTL_MS),
    createdAt: now,
  });
  // Trips nobody can use any more go as new ones start.
  await repo.deleteOldMapRequests(deps.db, new Date(now.getTime() - 24 * 3_600_000));
  return mapForm(deps.settings, deps.publicUrl, {
    token,
    brand: body.brand,
    device: body.device,
    serverReplyUrl: `${deps.publicUrl}${MAP_REPLY_PATH}`,
  });
}

/** Why a map reply was refused: its shape or merchant, its token, a token already answered, a store the provider does not list, the provider's list out of reach. */
export type MapReplyRefusal = 'malformed' | 'unknown' | 'expired' | 'used' | 'no-store' | 'unavailable';

export type MapReplyOutcome =
  | { readonly ok: true; readonly location: string }
  | { readonly ok: false; readonly reason: MapReplyRefusal; readonly returnTo: string | null };

/**
 * Records the store a map reply names as its trip's choice, and nothing else: the reply is unsigned
 * and anyone holding the token could send it, so only its store id is taken, confirmed with the
 * provider's store list (which describes the store, island flag included), and a trip takes one
 * reply. Refusals change nothing.
 */
export async function recordMapReply(
  deps: MapDeps & { readonly post: FormPost },
  form: Record<string, string>,
): Promise<MapReplyOutcome> {
  const parsed = MapReply.safeParse(form);
  if (!parsed.success) return { ok: false, reason: 'malformed', returnTo: null };
  const reply = parsed.data;
  if (reply.MerchantID !== deps.settings.merchantId) return { ok: false, reason: 'unknown', returnTo: null };
  const trip = await repo.mapRequest(deps.db, reply.MerchantTradeNo);
  if (!trip) return { ok: false, reason: 'unknown', returnTo: null };
  if (trip.expiresAt.getTime() <= clock(deps).getTime())
    return { ok: false, reason: 'expired', returnTo: trip.returnTo };
  // A reply for another chain than the one the trip was for is not this trip's.
  if (reply.LogisticsSubType !== logisticsSubType(deps.settings.type, trip.brand))
    return { ok: false, reason: 'malformed', returnTo: trip.returnTo };
  if (trip.storeId) return { ok: false, reason: 'used', returnTo: trip.returnTo };
  const store = await confirmStore(deps, trip.brand, reply.CVSStoreID);
  if (store === null) return { ok: false, reason: 'no-store', returnTo: trip.returnTo };
  if (store === 'unavailable') return { ok: false, reason: 'unavailable', returnTo: trip.returnTo };
  // Two replies for one token at once: only the first sets the choice.
  if (!(await repo.chooseStore(deps.db, trip.token, store.id, clock(deps))))
    return { ok: false, reason: 'used', returnTo: trip.returnTo };
  return { ok: true, location: `${trip.returnTo}?${CVS_MAP_PARAM}=${trip.token}` };
}

/** The store chosen on a trip, for the member who started it (anyone else: not found). */
export async function mapChoice(
  deps: Pick<MapDeps, 'db'>,
  userId: string,
  token: string,
): Promise<CvsStoreChoice> {
  const trip = await repo.mapRequest(deps.db, token);
  const store =
    trip && trip.userId === userId && trip.storeId
      ? await repo.findStore(deps.db, trip.brand, trip.storeId)
      : null;
  if (!store) throw new NotFoundError('找不到這次選擇的門市，請重新選擇門市。');
  return store;
}
