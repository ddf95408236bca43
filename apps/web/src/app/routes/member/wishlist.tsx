import { useQueryClient } from '@tanstack/react-query';
import { cartQueryOptions } from '../../../features/cart/api/cart-api.ts';
import { WishlistPage } from '../../../features/catalog/components/wishlist-page.tsx';

/** 收藏清單: the catalog's list, and the cart told when a kept product moves into it. */
export default function WishlistRoute() {
  const client = useQueryClient();
  return <WishlistPage onMoved={(cart) => client.setQueryData(cartQueryOptions().queryKey, cart)} />;
}
