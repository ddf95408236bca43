import type {
  NotificationSettings,
  ReminderSettings,
  ReturnSettings,
  ShippingSettingsView,
  UpdateShippingBody,
} from '@shop/shared/admin-settings';
import type { MaintenanceStatus, SetMaintenanceBody } from '@shop/shared/site';
import type { AnalyticsSettingsInput, StorefrontSettings, StorefrontView } from '@shop/shared/storefront';
import type { StorePaymentSettings } from '@shop/shared/store-payments';
import { apiGet, apiPost, apiPut } from '../../lib/api-client.ts';
import { adminApiUrl } from '../shared/api.ts';

/** The console's calls for shipping fee rules, maintenance mode, the shop's own mails, the reminders, the return period, the footer's facts and the measurement IDs. */
export const settingsApi = {
  shipping: (signal?: AbortSignal) =>
    apiGet<ShippingSettingsView>(adminApiUrl('/settings/shipping'), { signal }),
  saveShipping: (body: UpdateShippingBody) =>
    apiPut<ShippingSettingsView>(adminApiUrl('/settings/shipping'), body),
  /** The site's public status: what shoppers see (the server's MAINTENANCE_MODE included). */
  maintenance: (signal?: AbortSignal) => apiGet<MaintenanceStatus>('/api/site/status', { signal }),
  setMaintenance: (body: SetMaintenanceBody) => apiPost<MaintenanceStatus>(adminApiUrl('/maintenance'), body),
  notifications: (signal?: AbortSignal) =>
    apiGet<NotificationSettings>(adminApiUrl('/settings/notifications'), { signal }),
  saveNotifications: (body: NotificationSettings) =>
    apiPut<NotificationSettings>(adminApiUrl('/settings/notifications'), body),
  reminders: (signal?: AbortSignal) =>
    apiGet<ReminderSettings>(adminApiUrl('/settings/reminders'), { signal }),
  saveReminders: (body: ReminderSettings) =>
    apiPut<ReminderSettings>(adminApiUrl('/settings/reminders'), body),
  storePayments: (signal?: AbortSignal) =>
    apiGet<StorePaymentSettings>(adminApiUrl('/settings/store-payments'), { signal }),
  saveStorePayments: (body: StorePaymentSettings) =>
    apiPut<StorePaymentSettings>(adminApiUrl('/settings/store-payments'), body),
  returns: (signal?: AbortSignal) => apiGet<ReturnSettings>(adminApiUrl('/settings/returns'), { signal }),
  saveReturns: (body: ReturnSettings) => apiPut<ReturnSettings>(adminApiUrl('/settings/returns'), body),
  storefront: (signal?: AbortSignal) =>
    apiGet<StorefrontView['footer']>(adminApiUrl('/settings/storefront'), { signal }),
  saveStorefront: (body: StorefrontSettings) =>
    apiPut<StorefrontView['footer']>(adminApiUrl('/settings/storefront'), body),
  analytics: (signal?: AbortSignal) =>
    apiGet<StorefrontView['analytics']>(adminApiUrl('/settings/analytics'), { signal }),
  saveAnalytics: (body: AnalyticsSettingsInput) =>
    apiPut<StorefrontView['analytics']>(adminApiUrl('/settings/analytics'), body),
};
