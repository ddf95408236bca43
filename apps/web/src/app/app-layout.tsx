import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DefaultLayout } from '../components/layouts/default-layout.tsx';
import { useCartCount } from '../features/cart/api/cart-api.ts';
import { useIsLogin } from '../features/auth/stores/user-store.ts';
import { useConsent } from './consent-host.ts';

/** While signed in, server events refresh what they concern: orders, cart, membership. */
function useMemberEvents(signedIn: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    // Only members get live updates: the stream's code loads when someone is signed in.
    let stop: (() => void) | undefined;
    let ended = false;
    void import('../lib/member-events.ts').then(({ connectMemberEvents }) => {
      if (ended) return;
      stop = connectMemberEvents(
        (event) => {
          if (event.type === 'order.updated') {
            void client.invalidateQueries({ queryKey: ['orders'] });
            void client.invalidateQueries({ queryKey: ['membership'] });
          }
          if (event.type === 'cart.updated') void client.invalidateQueries({ queryKey: ['cart'] });
          if (event.type === 'membership.updated')
            void client.invalidateQueries({ queryKey: ['membership'] });
        },
        () => void client.invalidateQueries(),
      );
    });
    return () => {
      ended = true;
      stop?.();
    };
  }, [signedIn, client]);
}

/** The `default` layout with what the app knows: sign-in, cart count and live updates. */
export function AppLayout() {
  const signedIn = useIsLogin();
  useMemberEvents(signedIn);
  useConsent();
  return <DefaultLayout cartCount={useCartCount(signedIn)} isLogin={signedIn} />;
}
