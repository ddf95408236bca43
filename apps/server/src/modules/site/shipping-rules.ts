import { UpdateShippingBody } from '@shop/shared/admin-settings';
import {
  DEFAULT_SHIPPING_RULES,
  editablePart,
  withLabels,
  type EditableShippingRules,
  type ShippingRules,
} from '@shop/shared/shipping';
import type { Db, DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

/**
 * The shipping fee rules live in site_settings under 'shipping' (the editable amounts and lead
 * times; the method names stay in code). Until the owner saves, the defaults apply. Checkout, the
 * public GET /api/site/shipping-rules and the content tokens all read them through
 * `shippingRules()`, so what a page quotes and what checkout charges come from one place.
 */
const KEY = 'shipping';

/** How long a read is reused. A save in this process drops it at once; another instance's save shows within this. */
export const SHIPPING_RULES_TTL_MS = 5_000;

export interface StoredShippingRules {
  readonly rules: ShippingRules;
  /** When the owner last saved; null while the defaults apply. */
  readonly updatedAt: Date | null;
}

/**
 * The stored row, field by field over the defaults: a row written by an older version (or broken
 * by hand) never stops checkout, it just falls back where it does not fit.
 */
function fromStored(value: unknown): ShippingRules {
  const stored = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const whole = UpdateShippingBody.safeParse(stored);
  if (whole.success) return withLabels(whole.data);
  const defaults = editablePart(DEFAULT_SHIPPING_RULES);
  const shape = UpdateShippingBody.shape;
  const method = (m: 'home' | 'cvs') => {
    const part = (stored[m] && typeof stored[m] === 'object' ? stored[m] : {}) as Record<string, unknown>;
    const s = shape[m].shape;
    return {
      fee: s.fee.safeParse(part.fee).data ?? defaults[m].fee,
      freeOver: s.freeOver.safeParse(part.freeOver).data ?? defaults[m].freeOver,
      leadTime: s.leadTime.safeParse(part.leadTime).data ?? defaults[m].leadTime,
    };
  };
  return withLabels({
    home: method('home'),
    cvs: method('cvs'),
    outlyingSurcharge:
      shape.outlyingSurcharge.safeParse(stored.outlyingSurcharge).data ?? defaults.outlyingSurcharge,
    codFee: shape.codFee.safeParse(stored.codFee).data ?? defaults.codFee,
  });
}

/** Reads the rules from the database, uncached (the console shows this; everything else uses `shippingRules`). */
export async function readShippingRules(db: DbOrTx): Promise<StoredShippingRules> {
  const row = await repo.readSetting(db, KEY);
  return row
    ? { rules: fromStored(row.value), updatedAt: row.updatedAt }
    : { rules: DEFAULT_SHIPPING_RULES, updatedAt: null };
}

/** Saves the editable values; call `shippingRulesChanged` after the transaction commits. */
export async function writeShippingRules(db: DbOrTx, values: EditableShippingRules): Promise<void> {
  const value = {
    home: { ...values.home },
    cvs: { ...values.cvs },
    outlyingSurcharge: values.outlyingSurcharge,
    codFee: values.codFee,
  };
  await repo.writeSetting(db, KEY, value);
}

// ── the one cached accessor ─────────────────────────────────────────────────────────────────────

/** Per database (or transaction) object, so two apps in one process never share a cache. */
const cache = new WeakMap<object, { at: number; rules: ShippingRules }>();

/**
 * The rules in force: read at most every few seconds per database. A transaction (placing an
 * order) reads them afresh inside itself, so the order is priced by the rules committed when it is
 * placed.
 */
export async function shippingRules(db: DbOrTx): Promise<ShippingRules> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < SHIPPING_RULES_TTL_MS) return hit.rules;
  const { rules } = await readShippingRules(db);
  cache.set(db, { at: Date.now(), rules });
  if (db === served?.db) served.latest = { at: Date.now(), rules };
  return rules;
}

/** After a save in this process: the next read goes to the database, and the served copy is the new one at once. */
export function shippingRulesChanged(db: Db, rules: ShippingRules): void {
  cache.delete(db);
  if (db === served?.db) served.latest = { at: Date.now(), rules };
}

// ── the served copy, for code that cannot wait (content tokens filled while parsing a document) ──

interface Served {
  readonly db: Db;
  latest: { at: number; rules: ShippingRules };
  refresh(): void;
}
let served: Served | null = null;

/**
 * Keeps a copy of this app's rules in memory for `currentShippingRules()`: loaded once now, then
 * refreshed in the background when older than the cache time. One app per process serves it (the
 * last one started). Returns a function that stops it.
 */
export async function serveShippingRules(db: Db, onError: (error: unknown) => void): Promise<() => void> {
  let refreshing = false;
  const mine: Served = {
    db,
    latest: { at: 0, rules: DEFAULT_SHIPPING_RULES },
    refresh() {
      if (refreshing) return;
      refreshing = true;
      shippingRules(db)
        .catch(onError)
        .finally(() => {
          refreshing = false;
        });
    },
  };
  served = mine;
  try {
    await shippingRules(db);
  } catch (error) {
    onError(error);
  }
  return () => {
    if (served === mine) served = null;
  };
}

/**
 * The rules in force, without waiting: this process's copy (refreshed in the background once it is
 * older than a few seconds; a save in this process replaces it at once). The defaults when no app
 * serves them.
 */
export function currentShippingRules(): ShippingRules {
  if (!served) return DEFAULT_SHIPPING_RULES;
  if (Date.now() - served.latest.at >= SHIPPING_RULES_TTL_MS) served.refresh();
  return served.latest.rules;
}
