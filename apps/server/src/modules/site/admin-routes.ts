import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NotificationSettings,
  ReminderSettings,
  ReturnSettings,
  ShippingSettingsView,
  UpdateShippingBody,
} from '@shop/shared/admin-settings';
import { MaintenanceStatus, SetMaintenanceBody } from '@shop/shared/site';
import { StorePaymentSettings } from '@shop/shared/store-payments';
import { AnalyticsSettings, StorefrontSettings, StorefrontView } from '@shop/shared/storefront';
import { EVERYONE } from '../../plugins/events.ts';
import { recordAudit } from '../../plugins/audit.ts';
import {
  notificationSettings,
  reminderSettings,
  returnSettings,
  saveNotificationSettings,
  saveReminderSettings,
  saveReturnSettings,
  saveShippingRules,
  saveStorePaymentSettings,
  setMaintenance,
  storePaymentSettings,
  storePaymentSettingsChanged,
  shippingRulesSaved,
  shippingSettings,
} from './admin-service.ts';
import { readStorefront, saveAnalytics, saveFooter } from './storefront.ts';

/** Site settings: the shipping fee rules, maintenance mode, the shop's own mails, the footer's facts and the measurement IDs (the owner changes them; every role reads). */
const settings: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/settings/shipping',
    { config: { permission: 'settings.read' }, schema: { response: { 200: ShippingSettingsView } } },
    async () => shippingSettings(app.db),
  );

  r.put(
    '/api/admin/settings/shipping',
    {
      config: { permission: 'settings.write' },
      schema: { body: UpdateShippingBody, response: { 200: ShippingSettingsView } },
    },
    async (request) => {
      const saved = await app.db.transaction(async (tx) => {
        const change = await saveShippingRules(tx, request.body);
        await recordAudit(tx, request, {
          action: 'shipping.update',
          entity: 'setting',
          entityId: 'shipping',
          before: change.before,
          after: change.after,
        });
        return change.saved;
      });
      return shippingRulesSaved(app.db, saved);
    },
  );

  r.get(
    '/api/admin/settings/notifications',
    { config: { permission: 'settings.read' }, schema: { response: { 200: NotificationSettings } } },
    async () => notificationSettings(app.db),
  );

  r.put(
    '/api/admin/settings/notifications',
    {
      config: { permission: 'settings.write' },
      schema: { body: NotificationSettings, response: { 200: NotificationSettings } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await saveNotificationSettings(tx, request.body);
        await recordAudit(tx, request, {
          action: 'notifications.update',
          entity: 'setting',
          entityId: 'notifications',
          before,
          after: request.body,
        });
      });
      return notificationSettings(app.db);
    },
  );

  r.get(
    '/api/admin/settings/reminders',
    { config: { permission: 'settings.read' }, schema: { response: { 200: ReminderSettings } } },
    async () => reminderSettings(app.db),
  );

  r.put(
    '/api/admin/settings/reminders',
    {
      config: { permission: 'settings.write' },
      schema: { body: ReminderSettings, response: { 200: ReminderSettings } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await saveReminderSettings(tx, request.body);
        await recordAudit(tx, request, {
          action: 'reminders.settings',
          entity: 'setting',
          entityId: 'reminders',
          before,
          after: request.body,
        });
      });
      return reminderSettings(app.db);
    },
  );

  r.get(
    '/api/admin/settings/store-payments',
    { config: { permission: 'settings.read' }, schema: { response: { 200: StorePaymentSettings } } },
    async () => storePaymentSettings(app.db),
  );

  r.put(
    '/api/admin/settings/store-payments',
    {
      config: { permission: 'settings.write' },
      schema: { body: StorePaymentSettings, response: { 200: StorePaymentSettings } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await saveStorePaymentSettings(tx, request.body);
        await recordAudit(tx, request, {
          action: 'store-payments.settings',
          entity: 'setting',
          entityId: 'store-payments',
          before,
          after: request.body,
        });
      });
      storePaymentSettingsChanged(app.db);
      return storePaymentSettings(app.db);
    },
  );

  r.get(
    '/api/admin/settings/returns',
    { config: { permission: 'settings.read' }, schema: { response: { 200: ReturnSettings } } },
    async () => returnSettings(app.db),
  );

  r.put(
    '/api/admin/settings/returns',
    {
      config: { permission: 'settings.write' },
      schema: { body: ReturnSettings, response: { 200: ReturnSettings } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await saveReturnSettings(tx, request.body);
        await recordAudit(tx, request, {
          action: 'returns.settings',
          entity: 'setting',
          entityId: 'returns',
          before,
          after: request.body,
        });
      });
      return returnSettings(app.db);
    },
  );

  // The footer's facts (company, 統一編號, links, marks) and the measurement IDs: every page shows
  // the one, the content security policy and the consent banner follow the other.
  r.get(
    '/api/admin/settings/storefront',
    { config: { permission: 'settings.read' }, schema: { response: { 200: StorefrontView.shape.footer } } },
    async () => (await readStorefront(app.db)).footer,
  );

  r.put(
    '/api/admin/settings/storefront',
    {
      config: { permission: 'settings.write' },
      schema: { body: StorefrontSettings, response: { 200: StorefrontView.shape.footer } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await saveFooter(tx, request.body);
        await recordAudit(tx, request, {
          action: 'storefront.update',
          entity: 'setting',
          entityId: 'storefront',
          before,
          after: request.body,
        });
      });
      await app.storefrontChanged();
      return (await readStorefront(app.db)).footer;
    },
  );

  r.get(
    '/api/admin/settings/analytics',
    {
      config: { permission: 'settings.read' },
      schema: { response: { 200: StorefrontView.shape.analytics } },
    },
    async () => (await readStorefront(app.db)).analytics,
  );

  r.put(
    '/api/admin/settings/analytics',
    {
      config: { permission: 'settings.write' },
      schema: { body: AnalyticsSettings, response: { 200: StorefrontView.shape.analytics } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await saveAnalytics(tx, request.body);
        await recordAudit(tx, request, {
          action: 'analytics.update',
          entity: 'setting',
          entityId: 'analytics',
          before,
          after: request.body,
        });
      });
      await app.storefrontChanged();
      return (await readStorefront(app.db)).analytics;
    },
  );

  r.post(
    '/api/admin/maintenance',
    {
      config: { permission: 'settings.write' },
      schema: { body: SetMaintenanceBody, response: { 200: MaintenanceStatus } },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const before = await setMaintenance(tx, request.body);
        await recordAudit(tx, request, {
          action: 'maintenance.set',
          entity: 'setting',
          entityId: 'maintenance',
          before,
          after: request.body,
        });
      });
      app.maintenanceChanged();
      const status = await app.maintenanceStatus();
      // Open pages hear of it at once (every instance also drops its cached status on this news);
      // pages with no live-update stream learn at their next request (docs/product-rules.md#maintenance-mode).
      await app.events.publish(EVERYONE, { type: 'site.maintenance', data: { enabled: status.enabled } });
      return status;
    },
  );
};

export default settings;
