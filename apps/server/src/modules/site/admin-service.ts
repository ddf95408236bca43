import {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_REMINDERS,
  NotificationSettings,
  ReminderSettings,
  ReturnSettings,
} from '@shop/shared/admin-settings';
import { DEFAULT_RETURN_DAYS } from '@shop/shared/returns';
import { DEFAULT_STORE_PAYMENTS, StorePaymentSettings } from '@shop/shared/store-payments';
import type { ShippingSettingsView, UpdateShippingBody } from '@shop/shared/admin-settings';
import { editablePart } from '@shop/shared/shipping';
import type { MaintenanceStatus, SetMaintenanceBody } from '@shop/shared/site';
import type { Db, DbOrTx } from '../../db/client.ts';
import { contentChanged } from '../content/service.ts';
import { readMaintenance, writeMaintenance } from './maintenance.ts';
import * as repo from './repo.ts';
import {
  readShippingRules,
  shippingRulesChanged,
  writeShippingRules,
  type StoredShippingRules,
} from './shipping-rules.ts';

const view = (s: StoredShippingRules): ShippingSettingsView => ({
  rules: s.rules,
  updatedAt: s.updatedAt?.toISOString() ?? null,
});

export async function shippingSettings(db: DbOrTx): Promise<ShippingSettingsView> {
  return view(await readShippingRules(db));
}

/** Saves the shipping fee rules; the change (editable parts before and after) is for the audit row. */
export async function saveShippingRules(tx: DbOrTx, body: UpdateShippingBody) {
  const before = await readShippingRules(tx);
  await writeShippingRules(tx, body);
  const after = await readShippingRules(tx);
  return { saved: after, before: editablePart(before.rules), after: editablePart(after.rules) };
}

/** Once the save is committed: checkout, the public table and the pages' amounts use the new rules from the next request. */
export function shippingRulesSaved(db: Db, saved: StoredShippingRules): ShippingSettingsView {
  shippingRulesChanged(db, saved.rules);
  contentChanged();
  return view(saved);
}

/** Turns maintenance mode on or off; returns what it was (for the audit row). */
export async function setMaintenance(tx: DbOrTx, body: SetMaintenanceBody): Promise<MaintenanceStatus> {
  const before = await readMaintenance(tx, false);
  await writeMaintenance(tx, body);
  return before;
}

/** The shop's own mails, on unless the owner switched them off. */
export async function notificationSettings(db: DbOrTx): Promise<NotificationSettings> {
  const parsed = NotificationSettings.safeParse((await repo.readSetting(db, 'notifications'))?.value);
  return parsed.success ? parsed.data : DEFAULT_NOTIFICATIONS;
}

/** Saves them; answers what they were, for the audit row. */
export async function saveNotificationSettings(
  tx: DbOrTx,
  body: NotificationSettings,
): Promise<NotificationSettings> {
  const before = await notificationSettings(tx);
  await repo.writeSetting(tx, 'notifications', { ...body });
  return before;
}

/** The return period, in days after delivery (seven unless the owner lengthened it). */
export async function returnSettings(db: DbOrTx): Promise<ReturnSettings> {
  const parsed = ReturnSettings.safeParse((await repo.readSetting(db, 'returns'))?.value);
  return parsed.success ? parsed.data : { days: DEFAULT_RETURN_DAYS };
}

export async function saveReturnSettings(tx: DbOrTx, body: ReturnSettings): Promise<ReturnSettings> {
  const before = await returnSettings(tx);
  await repo.writeSetting(tx, 'returns', { ...body });
  return before;
}

/** The reminder mails' switches, lead time and delay (the defaults until the owner saves them). */
export async function reminderSettings(db: DbOrTx): Promise<ReminderSettings> {
  const parsed = ReminderSettings.safeParse((await repo.readSetting(db, 'reminders'))?.value);
  return parsed.success ? parsed.data : DEFAULT_REMINDERS;
}

/** Saves them; answers what they were, for the audit row. */
export async function saveReminderSettings(tx: DbOrTx, body: ReminderSettings): Promise<ReminderSettings> {
  const before = await reminderSettings(tx);
  await repo.writeSetting(tx, 'reminders', { ...body });
  return before;
}

/** Store payments' ranges and deadlines and the instalment terms (the defaults until the owner saves them). */
export async function storePaymentSettings(db: DbOrTx): Promise<StorePaymentSettings> {
  const parsed = StorePaymentSettings.safeParse((await repo.readSetting(db, 'store-payments'))?.value);
  return parsed.success ? parsed.data : DEFAULT_STORE_PAYMENTS;
}

/** How long a quote reuses a read of them; a save in this process drops it, another instance's shows within this. */
const STORE_PAYMENTS_TTL_MS = 5_000;
/** Per database object, so two apps in one process never share one. */
const storePaymentsRead = new WeakMap<object, { at: number; settings: StorePaymentSettings }>();

/**
 * The settings in force, read at most every few seconds per database: a quote is asked on every
 * change at checkout. Placing an order reads them afresh in its transaction.
 */
export async function currentStorePaymentSettings(db: DbOrTx): Promise<StorePaymentSettings> {
  const hit = storePaymentsRead.get(db);
  if (hit && Date.now() - hit.at < STORE_PAYMENTS_TTL_MS) return hit.settings;
  const settings = await storePaymentSettings(db);
  storePaymentsRead.set(db, { at: Date.now(), settings });
  return settings;
}

/** After a save in this process: the next read goes to the database. */
export function storePaymentSettingsChanged(db: DbOrTx): void {
  storePaymentsRead.delete(db);
}

/** Saves them; answers what they were, for the audit row. */
export async function saveStorePaymentSettings(
  tx: DbOrTx,
  body: StorePaymentSettings,
): Promise<StorePaymentSettings> {
  const before = await storePaymentSettings(tx);
  await repo.writeSetting(tx, 'store-payments', { ...body });
  return before;
}
