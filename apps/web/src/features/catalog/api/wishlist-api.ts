import { isServer, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CartResponse } from '@shop/shared/cart';
import type { WishlistIdsResponse, WishlistResponse } from '@shop/shared/wishlist';
import { apiDelete, apiGet, apiPost, apiPut } from '../../../lib/api-client.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';

/** The kept products' ids: what every heart on a page reads (one request for the page). */
export const wishlistIdsQueryOptions = () =>
  queryOptions({
    queryKey: ['wishlist', 'ids'],
    queryFn: ({ signal }) => apiGet<WishlistIdsResponse>('/api/wishlist/ids', { signal }),
    staleTime: 60_000,
  });

/** The member's 收藏 with prices and stock as they are now. */
export const wishlistQueryOptions = () =>
  queryOptions({
    queryKey: ['wishlist', 'list'],
    queryFn: ({ signal }) => apiGet<WishlistResponse>('/api/wishlist', { signal }),
  });

/**
 * Asked in the browser only: a product page or list is rendered once on the server for every
 * member (decision 038), and a member's own call there would make the page each member's own.
 */
export function useWishlistIds() {
  return useQuery({ ...wishlistIdsQueryOptions(), enabled: !isServer });
}

function setKept(
  ids: WishlistIdsResponse | undefined,
  productId: string,
  keep: boolean,
): WishlistIdsResponse {
  const rest = (ids?.productIds ?? []).filter((id) => id !== productId);
  return { productIds: keep ? [productId, ...rest] : rest };
}

/** Keeps or lets go of a product, shown at once and put back with a message if the server refuses. */
export function useToggleWishlist() {
  const client = useQueryClient();
  const key = wishlistIdsQueryOptions().queryKey;
  return useMutation({
    mutationFn: ({ productId, keep }: { productId: string; keep: boolean; name: string }) =>
      keep ? apiPut<void>(`/api/wishlist/${productId}`) : apiDelete<void>(`/api/wishlist/${productId}`),
    onMutate: async ({ productId, keep }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<WishlistIdsResponse>(key);
      client.setQueryData(key, setKept(previous, productId, keep));
      return { previous };
    },
    onError: (error, _vars, context) => {
      client.setQueryData(key, context?.previous);
      toast.error(errorMessage(error));
    },
    onSuccess: (_data, { keep, name }) => {
      toast.success(keep ? `已將「${name}」加入收藏` : `已將「${name}」移出收藏`);
      void client.invalidateQueries({ queryKey: wishlistQueryOptions().queryKey });
    },
  });
}

/** Puts one of a kept product's variants in the cart and takes it off the list; `onMoved` gets the new cart. */
export function useMoveToCart(onMoved: (cart: CartResponse) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, variantId }: { productId: string; variantId: string; name: string }) =>
      apiPost<CartResponse>(`/api/wishlist/${productId}/cart`, { variantId }),
    onError: (error) => toast.error(errorMessage(error)),
    onSuccess: (cart, { productId, name }) => {
      onMoved(cart);
      client.setQueryData<WishlistResponse>(wishlistQueryOptions().queryKey, (list) =>
        list ? { items: list.items.filter((i) => i.product.id !== productId) } : list,
      );
      client.setQueryData(wishlistIdsQueryOptions().queryKey, (ids: WishlistIdsResponse | undefined) =>
        setKept(ids, productId, false),
      );
      toast.success(`已將「${name}」加入購物車`);
    },
  });
}
