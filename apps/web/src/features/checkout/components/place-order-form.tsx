import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { CartResponse } from '@shop/shared/cart';
import type { CouponView } from '@shop/shared/membership';
import { Alert } from '../../../components/ui/alert.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useCheckoutForm } from '../hooks/use-checkout-form.ts';
import {
  CouponSection,
  InvoiceSection,
  NoteSection,
  PaymentMethodSection,
  RecipientSection,
  ShippingMethodSection,
} from './checkout-sections.tsx';
import { MobileOrderSummary, OrderSummary } from './order-summary.tsx';

export interface PlaceOrderFormProps {
  /** Whose draft this is ('anonymous' before the session is known). */
  uid: string;
  /** The signed-in shopper's address and whether it is verified (orders wait for verification). */
  user: { email: string; emailVerified: boolean } | null;
  cart: CartResponse;
  /** The member's coupons; the usable ones are offered. */
  coupons: readonly CouponView[];
  /** Shown in the verification notice (the auth feature's resend button). */
  verificationAction: ReactNode;
  /** The server refused for an unverified address: returns whether the page now shows its notice. */
  onEmailNotVerified: () => boolean;
}

/** The checkout page once the cart is known: the six steps, the order summary, placing the order. */
export function PlaceOrderForm({
  uid,
  user,
  cart,
  coupons,
  verificationAction,
  onEmailNotVerified,
}: PlaceOrderFormProps) {
  const { form, values, pick, quote, recalculating, onSubmit, formError, redirecting, storeMapPending } =
    useCheckoutForm({
      uid,
      hasLines: cart.lines.length > 0,
      onEmailNotVerified,
    });
  const unverified = Boolean(user && !user.emailVerified);

  if (cart.lines.length === 0 && !redirecting) {
    return (
      <Container className="py-8 sm:py-12">
        <PageHeader title="結帳" />
        <div className="mt-8">
          <EmptyState
            title="購物車是空的"
            description="先到商城挑選商品，再回來結帳。"
            action={<ButtonLink to={paths.mall()}>前往商城</ButtonLink>}
          />
        </div>
      </Container>
    );
  }
  const problems = cart.lines.filter((l) => l.problem !== null);

  return (
    <Container className="py-8 sm:py-12">
      <PageHeader
        title="結帳"
        lead={
          <Link to={paths.cart()} className={textLinkClass}>
            ← 回到購物車修改商品
          </Link>
        }
      />
      <form
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        className="mt-8 grid gap-8 lg:grid-cols-[1fr_360px]"
      >
        <div className="flex flex-col gap-6">
          <MobileOrderSummary lines={cart.lines} quote={quote.data} recalculating={recalculating} />
          {unverified && user && (
            <Alert tone="warning" title="請先完成電子郵件驗證，才能送出訂單" action={verificationAction}>
              我們已寄驗證信到 <span className="break-all font-medium">{user.email}</span>
              ，請點選信中的連結完成驗證；沒收到的話可以重新寄送。您填寫的資料會保留在這裡。
            </Alert>
          )}
          {problems.length > 0 && (
            <Alert
              tone="warning"
              action={
                <ButtonLink to={paths.cart()} size="sm" variant="secondary">
                  調整購物車
                </ButtonLink>
              }
            >
              購物車有 {problems.length} 項商品庫存不足或已下架，請先調整。
            </Alert>
          )}
          <ShippingMethodSection form={form} values={values} />
          <RecipientSection form={form} values={values} pick={pick} storeMapPending={storeMapPending} />
          <InvoiceSection form={form} values={values} />
          <PaymentMethodSection form={form} values={values} quote={quote.data} />
          <CouponSection form={form} values={values} quote={quote.data} coupons={coupons} />
          <NoteSection form={form} />
        </div>

        <OrderSummary
          lines={cart.lines}
          quote={quote.data}
          quoting={quote.isFetching}
          recalculating={recalculating}
          formError={formError}
          paymentMethod={values.paymentMethod}
          submitting={form.formState.isSubmitting}
          redirecting={redirecting}
          blocked={problems.length > 0 || unverified}
        />
      </form>
    </Container>
  );
}
