import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CartResponse } from '@shop/shared/cart';
import { apiDelete, apiGet, apiPatch, apiPost } from '../../../lib/api-client.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';

export const cartQueryOptions = () =>
  queryOptions({
    queryKey: ['cart'],
    queryFn: ({ signal }) => apiGet<CartResponse>('/api/cart', { signal }),
    staleTime: 30_000,
  });

/** The header badge: items in the cart (0 when signed out). */
export function useCartCount(signedIn: boolean): number {
  const cart = useQuery({ ...cartQueryOptions(), enabled: signedIn });
  return signedIn ? (cart.data?.itemCount ?? 0) : 0;
}

function recount(cart: CartResponse): CartResponse {
  const buyable = cart.lines.filter((l) => l.problem === null);
  return {
    ...cart,
    itemCount: cart.lines.reduce((n, l) => n + l.quantity, 0),
    subtotal: buyable.reduce((n, l) => n + l.lineTotal, 0),
  };
}

/**
 * A cart change shown at once (optimistic) and rolled back with a message if the server refuses;
 * the server's answer then replaces the guess.
 */
function useCartMutation<V>(
  send: (vars: V) => Promise<CartResponse>,
  guess: (cart: CartResponse, vars: V) => CartResponse,
  success?: (vars: V) => void,
) {
  const client = useQueryClient();
  const key = cartQueryOptions().queryKey;
  return useMutation({
    mutationFn: send,
    onMutate: async (vars) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<CartResponse>(key);
      if (previous) client.setQueryData(key, recount(guess(previous, vars)));
      return { previous };
    },
    onError: (error, _vars, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
      toast.error(errorMessage(error));
    },
    onSuccess: (cart, vars) => {
      client.setQueryData(key, cart);
      success?.(vars);
    },
  });
}

export function useAddToCart(onAdded?: () => void) {
  return useCartMutation<{ variantId: string; quantity: number }>(
    (vars) => apiPost<CartResponse>('/api/cart/items', vars),
    (cart, vars) => ({
      ...cart,
      lines: cart.lines.map((l) =>
        l.variantId === vars.variantId
          ? {
              ...l,
              quantity: l.quantity + vars.quantity,
              lineTotal: l.unitPrice * (l.quantity + vars.quantity),
            }
          : l,
      ),
      itemCount:
        cart.itemCount + (cart.lines.some((l) => l.variantId === vars.variantId) ? 0 : vars.quantity),
    }),
    onAdded,
  );
}

export function useUpdateCartItem() {
  return useCartMutation<{ variantId: string; quantity: number }>(
    ({ variantId, quantity }) =>
      apiPatch<CartResponse>(`/api/cart/items/${encodeURIComponent(variantId)}`, { quantity }),
    (cart, vars) => ({
      ...cart,
      lines: cart.lines.map((l) =>
        l.variantId === vars.variantId
          ? { ...l, quantity: vars.quantity, lineTotal: l.unitPrice * vars.quantity }
          : l,
      ),
    }),
  );
}

export function useRemoveCartItem() {
  return useCartMutation<{ variantId: string }>(
    ({ variantId }) => apiDelete<CartResponse>(`/api/cart/items/${encodeURIComponent(variantId)}`),
    (cart, vars) => ({ ...cart, lines: cart.lines.filter((l) => l.variantId !== vars.variantId) }),
  );
}
