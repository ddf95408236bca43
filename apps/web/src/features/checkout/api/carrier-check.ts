import type { UseFormReturn } from 'react-hook-form';
import { CARRIER_NOT_FOUND, type CarrierCheckResponse } from '@shop/shared/carrier-check';
import { isDonationCode, isMobileBarcode } from '@shop/shared/invoice';
import { apiPost } from '../../../lib/api-client.ts';
import type { CheckoutForm } from '../schema.ts';

const FIELD = { mobile: 'mobileBarcode', donation: 'donationCode' } as const;
const WELL_FORMED = { mobile: isMobileBarcode, donation: isDonationCode } as const;

/**
 * Wraps a mobile barcode or donation code field's onBlur: a code in the right shape is checked with
 * ECPay (through the shop), and one ECPay does not know is marked beside the field at once instead
 * of at 送出訂單. A check that cannot be made (offline, ECPay down) says nothing: the shop checks
 * the code again before the invoice is issued.
 */
export function checkedOnBlur<T extends { onBlur: (event: React.FocusEvent<HTMLInputElement>) => unknown }>(
  field: T,
  form: UseFormReturn<CheckoutForm>,
  kind: 'mobile' | 'donation',
): T {
  return {
    ...field,
    onBlur: async (event: React.FocusEvent<HTMLInputElement>) => {
      const code = event.target.value.trim();
      await field.onBlur(event);
      if (!WELL_FORMED[kind](code)) return;
      try {
        const { result } = await apiPost<CarrierCheckResponse>('/api/invoices/check-carrier', { kind, code });
        // Only if the field still holds what was checked.
        if (result === 'invalid' && form.getValues(FIELD[kind]) === code)
          form.setError(FIELD[kind], { type: 'server', message: CARRIER_NOT_FOUND[kind] });
      } catch {
        // Nothing to say: checked again at 送出訂單 and before the invoice is issued.
      }
    },
  };
}
