import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { CheckoutErrorCode } from '@shop/shared/checkout';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { addressesQueryOptions, lastRecipientQueryOptions } from '../api/address-api.ts';
import { placeOrder, quoteQueryOptions, submitPaymentForm } from '../api/checkout-api.ts';
import { useCheckoutDraft } from '../draft-store.ts';
import { CheckoutForm, formFieldOf, toPlaceOrderBody } from '../schema.ts';
import { useReturningFromStoreMap, useStoreMapReturn } from './use-store-map-return.ts';

export interface CheckoutFormOptions {
  /** Whose draft this is ('anonymous' before the session is known). */
  uid: string;
  /** The quote is asked for only while the cart has lines. */
  hasLines: boolean;
  /** The server says the address is not verified: the page shows its verification notice instead. */
  onEmailNotVerified: () => boolean;
}

/**
 * The checkout form's state: the draft kept per member (leaving and coming back restores it), the
 * default saved address on a first visit, the live quote, and placing the order (card and ATM go on
 * to the payment page, cash on delivery to /payComplete).
 */
export function useCheckoutForm({ uid, hasLines, onEmailNotVerified }: CheckoutFormOptions) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const draft = useCheckoutDraft();
  const [formError, setFormError] = useState<{ message: string; code: string | null } | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const idempotencyKey = useRef(draft.keyFor(uid));

  const form = useForm<CheckoutForm>({
    resolver: zodResolver(CheckoutForm),
    mode: 'onChange',
    defaultValues: draft.valuesFor(uid),
  });
  const values = form.watch();

  // Keep what was typed: leaving and coming back restores it.
  useEffect(() => {
    const sub = form.watch((v) =>
      useCheckoutDraft.getState().save(uid, { ...form.getValues(), ...v } as CheckoutForm),
    );
    return () => sub.unsubscribe();
  }, [form, uid]);

  // Back from the store map: the chosen store goes into the form, the rest stays as typed.
  const returning = useReturningFromStoreMap();
  const storeMap = useStoreMapReturn(form);

  const pick = (v: Partial<CheckoutForm>) => {
    for (const [key, value] of Object.entries(v))
      form.setValue(key as keyof CheckoutForm, value as never, { shouldValidate: true, shouldDirty: true });
  };
  // First visit with nothing typed yet: start from the default saved address or, with none saved,
  // from where the last order went.
  const addresses = useQuery(addressesQueryOptions());
  const noneSaved = addresses.data?.addresses.length === 0;
  const last = useQuery({ ...lastRecipientQueryOptions(), enabled: noneSaved });
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current || !addresses.data || returning) return;
    const preferred = addresses.data.addresses.find((a) => a.isDefault);
    if (!preferred && noneSaved && !last.isFetched) return;
    filled.current = true;
    if (form.getValues('recipientName') || form.getValues('address') || form.getValues('storeId')) return;
    if (preferred) {
      pick({
        shippingMethod: preferred.kind,
        recipientName: preferred.recipientName,
        phone: preferred.phone,
        city: preferred.city ?? '',
        district: preferred.district ?? '',
        address: preferred.address ?? '',
        ...(preferred.cvsBrand ? { cvsBrand: preferred.cvsBrand } : {}),
        storeId: preferred.storeId ?? '',
        storeName: preferred.storeName ?? '',
        storeAddress: preferred.storeAddress ?? '',
      });
    } else if (last.data?.recipient) {
      const { cvsBrand, ...recipient } = last.data.recipient;
      pick({ ...recipient, ...(cvsBrand ? { cvsBrand } : {}) });
    }
  });

  const quote = useQuery({
    ...quoteQueryOptions({
      shippingMethod: values.shippingMethod,
      ...(values.shippingMethod === 'home' && values.city && values.district
        ? { city: values.city, district: values.district }
        : {}),
      ...(values.shippingMethod === 'cvs' && values.storeId
        ? { cvsBrand: values.cvsBrand, storeId: values.storeId }
        : {}),
      paymentMethod: values.paymentMethod,
      ...(values.couponCode ? { couponCode: values.couponCode } : {}),
    }),
    enabled: hasLines,
  });

  // The amounts shown are not this choice's yet: the previous quote while the new one is on its way
  // (a slow network), or none at all. The summary says so and 送出訂單 waits for the server's figure.
  const recalculating = quote.isPlaceholderData || (quote.isPending && quote.isFetching);

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const result = await placeOrder(toPlaceOrderBody(v, idempotencyKey.current));
      useCheckoutDraft.getState().orderPlaced(result.order.orderNo);
      idempotencyKey.current = useCheckoutDraft.getState().idempotencyKey;
      // An order empties the cart and changes the member's orders and membership.
      void client.invalidateQueries({ queryKey: ['cart'] });
      void client.invalidateQueries({ queryKey: ['orders'] });
      void client.invalidateQueries({ queryKey: ['membership'] });
      if (v.saveAddress) void client.invalidateQueries({ queryKey: ['addresses'] });
      if (result.payment) {
        setRedirecting(true);
        submitPaymentForm(result.payment);
        return;
      }
      void navigate(paths.payComplete(result.order.orderNo), { replace: true });
    } catch (error) {
      const fields = error instanceof ApiError && error.fields ? Object.entries(error.fields) : [];
      let placed = 0;
      for (const [path, message] of fields) {
        const name = formFieldOf(path);
        if (name)
          form.setError(
            name as Path<CheckoutForm>,
            { type: 'server', message },
            { shouldFocus: placed++ === 0 },
          );
      }
      // The server knows better than this tab: the verification notice above takes over.
      if (
        error instanceof ApiError &&
        error.code === CheckoutErrorCode.emailNotVerified &&
        onEmailNotVerified()
      )
        return;
      if (placed === 0)
        setFormError({ message: errorMessage(error), code: error instanceof ApiError ? error.code : null });
      if (
        error instanceof ApiError &&
        ['cart-changed', 'insufficient-stock', 'cart-empty'].includes(error.code)
      )
        void client.invalidateQueries({ queryKey: ['cart'] });
    }
  });

  return {
    form,
    values,
    pick,
    quote,
    recalculating,
    onSubmit,
    formError,
    redirecting,
    storeMapPending: storeMap.pending,
  };
}

export type CheckoutFormState = ReturnType<typeof useCheckoutForm>;
