import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { CVS_MAP_PARAM, type CvsStoreChoice } from '@shop/shared/logistics';
import { errorMessage } from '../../../lib/form.ts';
import { storeChoiceQueryOptions } from '../../../lib/store-map.ts';
import type { CheckoutForm } from '../schema.ts';

/** True while the page is coming back from the store map (its choice is not applied yet). */
export function useReturningFromStoreMap(): boolean {
  const [params] = useSearchParams();
  return params.has(CVS_MAP_PARAM);
}

/** The form's store fields for a store the map returned. */
export function storeFields(choice: CvsStoreChoice): Partial<CheckoutForm> {
  return {
    shippingMethod: 'cvs',
    cvsBrand: choice.brand,
    storeId: choice.id,
    storeName: choice.name,
    storeAddress: choice.address,
    storePhone: choice.phone,
    storeOutlying: choice.outlying,
  };
}

/**
 * Coming back from the store map (`?cvsMap=<token>`): reads the chosen store with the member's
 * session, puts it into the form (everything else typed stays as it was), and takes the token off
 * the address. A choice that cannot be read leaves the store empty and says why beside it.
 */
export function useStoreMapReturn(form: UseFormReturn<CheckoutForm>): { pending: boolean } {
  const [params, setParams] = useSearchParams();
  const token = params.get(CVS_MAP_PARAM);
  const choice = useQuery({ ...storeChoiceQueryOptions(token ?? ''), enabled: Boolean(token) });
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!token || handled.current === token || (!choice.data && !choice.error)) return;
    handled.current = token;
    if (choice.data) {
      for (const [key, value] of Object.entries(storeFields(choice.data))) {
        form.setValue(key as keyof CheckoutForm, value as never, {
          shouldValidate: key === 'storeId',
          shouldDirty: true,
        });
      }
    } else {
      form.setValue('storeId', '');
      form.setError('storeId', { type: 'server', message: errorMessage(choice.error) });
    }
    setParams(
      (p) => {
        p.delete(CVS_MAP_PARAM);
        return p;
      },
      { replace: true },
    );
  }, [token, choice.data, choice.error, form, setParams]);

  // The token leaves the address once the choice is in the form.
  return { pending: Boolean(token) };
}
