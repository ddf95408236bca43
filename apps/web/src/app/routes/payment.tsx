import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert.tsx';
import { Container, PageHeader } from '../../components/ui/page.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage } from '../../lib/form.ts';
import { currentUserQueryOptions } from '../../features/auth/api/get-current-user.ts';
import { ResendVerificationButton } from '../../features/auth/components/resend-verification.tsx';
import { useUserStore } from '../../features/auth/stores/user-store.ts';
import { cartQueryOptions } from '../../features/cart/api/cart-api.ts';
import { PlaceOrderForm } from '../../features/checkout/components/place-order-form.tsx';
import { useCheckoutDraft } from '../../features/checkout/draft-store.ts';
import { orderQueryOptions } from '../../features/orders/api/orders-api.ts';
import { PayOutcome, outcomeOf } from '../../features/orders/components/pay-outcome.tsx';
import { membershipQueryOptions } from '../../features/member/api/member-api.ts';
import { cartItems, trackShopEvent } from '../../lib/shop-events.ts';

/** The server refused for an unverified address: this tab learns it, so the form shows its notice. */
function markEmailUnverified(): boolean {
  const current = useUserStore.getState().userInfo;
  if (!current) return false;
  useUserStore.getState().setUserInfo({ ...current, emailVerified: false });
  return true;
}

/** /payment: the checkout form (features/checkout) with the shopper, cart and coupons it needs. */
export default function PaymentPage() {
  const uid = useUserStore((s) => s.userInfo?.uid ?? 'anonymous');
  const user = useUserStore((s) => s.userInfo);
  // Fresh from the server on every visit: an address verified in another tab counts at once.
  useQuery({ ...currentUserQueryOptions(), staleTime: 0 });
  const cart = useQuery(cartQueryOptions());
  const membership = useQuery(membershipQueryOptions());
  // Back from the payment gateway (the browser's Back): the cart is empty because the order was
  // placed; show that order and how to pay it rather than an empty cart.
  const lastOrderNo = useCheckoutDraft((s) => (s.owner === uid ? s.lastOrderNo : null));
  const cartEmpty = cart.data?.lines.length === 0;
  // Checkout begun: once per visit of this page, with the cart as the server priced it.
  const cartReady = cart.data !== undefined && !cartEmpty;
  useEffect(() => {
    if (!cartReady || !cart.data) return;
    trackShopEvent({ name: 'begin_checkout', value: cart.data.subtotal, items: cartItems(cart.data.lines) });
  }, [cartReady]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the cart is first known
  const placed = useQuery({
    ...orderQueryOptions(lastOrderNo ?? ''),
    enabled: cartEmpty && lastOrderNo !== null,
  });
  if (cartEmpty && placed.data && ['waiting', 'failed', 'atm', 'store'].includes(outcomeOf(placed.data)))
    return <PayOutcome order={placed.data} left />;

  if (!cart.data || (cartEmpty && lastOrderNo !== null && placed.isPending)) {
    return (
      <Container className="py-8 sm:py-12">
        <PageHeader title="結帳" />
        {cart.isError ? (
          <Alert className="mt-8" tone="error">
            {errorMessage(cart.error)}
          </Alert>
        ) : (
          <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_360px]" role="status" aria-label="載入結帳資料">
            <Skeleton className="h-96" />
            <Skeleton className="h-64" />
          </div>
        )}
      </Container>
    );
  }
  return (
    <PlaceOrderForm
      uid={uid}
      user={user}
      cart={cart.data}
      coupons={membership.data?.coupons ?? []}
      verificationAction={<ResendVerificationButton />}
      onEmailNotVerified={markEmailUnverified}
    />
  );
}
