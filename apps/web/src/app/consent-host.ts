import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { StorefrontView } from '@shop/shared/storefront';

/**
 * After the layout hydrates, loads the cookie banner's code (features/consent) only when a
 * measurement provider is configured, or when the footer's 「Cookie 設定」 asks (the window event
 * `shop:open-consent`). With no provider configured not a byte of it loads (docs/decisions/042).
 * The IDs come with the footer's facts (lib/storefront-query.ts): in the page's state when the
 * server rendered it, which every page a visitor can arrive on is. Small on purpose: every page's
 * first load carries it.
 */
export function useConsent(): void {
  const client = useQueryClient();
  useEffect(() => {
    const run = (open: boolean) => {
      const ids = client.getQueryData<StorefrontView>(['site', 'storefront'])?.analytics;
      // Any ID entered (the three are '' when unused).
      if (ids && (open || Object.values(ids).join('')))
        void import('../features/consent/mount.tsx').then((consent) => consent.showConsent(ids, open));
    };
    const open = () => run(true);
    run(false);
    addEventListener('shop:open-consent', open);
    return () => removeEventListener('shop:open-consent', open);
  }, [client]);
}
