import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { StorefrontView } from '@shop/shared/storefront';
import { apiGet } from '../lib/api-client.ts';

/**
 * After the layout hydrates, loads the cookie banner's code (features/consent) only when a
 * measurement provider is configured, or when the footer's 「Cookie 設定」 asks (the window event
 * `shop:open-consent`). With no provider configured not a byte of it loads (docs/decisions/042).
 * The IDs come with the footer's facts (lib/storefront-query.ts's query, from the server's render
 * when there was one); this file stays small because every page's first load carries it.
 */
export function useConsent(): void {
  const client = useQueryClient();
  useEffect(() => {
    const run = async (open: boolean) => {
      const ids = (
        client.getQueryData<StorefrontView>(['site', 'storefront']) ??
        (await apiGet<StorefrontView>('/api/site/storefront'))
      ).analytics;
      if (open || ids.ga4MeasurementId || ids.metaPixelId || ids.lineTagId)
        (await import('../features/consent/mount.tsx')).showConsent(ids, open);
    };
    const open = () => void run(true).catch(() => {});
    void run(false).catch(() => {});
    addEventListener('shop:open-consent', open);
    return () => removeEventListener('shop:open-consent', open);
  }, [client]);
}
