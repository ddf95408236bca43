import { queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { settingsApi } from './api.ts';

export const settingsKeys = {
  shipping: () => [...adminKeys.all, 'settings', 'shipping'] as const,
  maintenance: () => [...adminKeys.all, 'settings', 'maintenance'] as const,
  notifications: () => [...adminKeys.all, 'settings', 'notifications'] as const,
  returns: () => [...adminKeys.all, 'settings', 'returns'] as const,
  reminders: () => [...adminKeys.all, 'settings', 'reminders'] as const,
  storePayments: () => [...adminKeys.all, 'settings', 'store-payments'] as const,
  storefront: () => [...adminKeys.all, 'settings', 'storefront'] as const,
  analytics: () => [...adminKeys.all, 'settings', 'analytics'] as const,
};

export const shippingSettingsQuery = () =>
  queryOptions({ queryKey: settingsKeys.shipping(), queryFn: ({ signal }) => settingsApi.shipping(signal) });

export const maintenanceQuery = () =>
  queryOptions({
    queryKey: settingsKeys.maintenance(),
    queryFn: ({ signal }) => settingsApi.maintenance(signal),
  });

export const notificationsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.notifications(),
    queryFn: ({ signal }) => settingsApi.notifications(signal),
  });

export const returnSettingsQuery = () =>
  queryOptions({ queryKey: settingsKeys.returns(), queryFn: ({ signal }) => settingsApi.returns(signal) });

export const reminderSettingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.reminders(),
    queryFn: ({ signal }) => settingsApi.reminders(signal),
  });

export const storefrontSettingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.storefront(),
    queryFn: ({ signal }) => settingsApi.storefront(signal),
  });

export const analyticsSettingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.analytics(),
    queryFn: ({ signal }) => settingsApi.analytics(signal),
  });

export const storePaymentSettingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.storePayments(),
    queryFn: ({ signal }) => settingsApi.storePayments(signal),
  });
