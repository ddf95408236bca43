import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { localJsonStorage } from '../../lib/local-storage.ts';
import { newIdempotencyKey as newKey } from './idempotency-key.ts';
import { EMPTY_CHECKOUT, type CheckoutForm } from './schema.ts';

/**
 * What the shopper typed at checkout, kept if they leave and come back (per member), and the
 * idempotency key of this checkout: the same key for every retry of one order.
 */
interface DraftState {
  owner: string | null;
  values: CheckoutForm;
  idempotencyKey: string;
  /** The order this checkout placed last: the way back from the gateway shows it, not an empty cart. */
  lastOrderNo: string | null;
  save(owner: string, values: CheckoutForm): void;
  valuesFor(owner: string): CheckoutForm;
  keyFor(owner: string): string;
  /** After an order is placed: the next checkout starts with a new key (the address is kept). */
  orderPlaced(orderNo: string): void;
  clear(): void;
}

export const useCheckoutDraft = create<DraftState>()(
  persist(
    (set, get) => ({
      owner: null,
      values: EMPTY_CHECKOUT,
      idempotencyKey: newKey(),
      lastOrderNo: null,
      save: (owner, values) => set({ owner, values }),
      valuesFor: (owner) => (get().owner === owner ? { ...EMPTY_CHECKOUT, ...get().values } : EMPTY_CHECKOUT),
      keyFor: (owner) => {
        if (get().owner !== owner)
          set({ owner, values: EMPTY_CHECKOUT, idempotencyKey: newKey(), lastOrderNo: null });
        return get().idempotencyKey;
      },
      orderPlaced: (orderNo) =>
        set((s) => ({
          idempotencyKey: newKey(),
          lastOrderNo: orderNo,
          values: { ...s.values, couponCode: '', note: '', saveAddress: false },
        })),
      clear: () => set({ owner: null, values: EMPTY_CHECKOUT, idempotencyKey: newKey(), lastOrderNo: null }),
    }),
    { name: 'checkoutDraft', version: 1, storage: localJsonStorage() },
  ),
);
