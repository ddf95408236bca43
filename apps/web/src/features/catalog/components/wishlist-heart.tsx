import { cn } from '../../../components/ui/cn.ts';
import { useToggleWishlist, useWishlistIds } from '../api/wishlist-api.ts';
import { HeartIcon, heartClass } from './heart-icon.tsx';

/**
 * A member's 收藏 heart: pressed when the product is kept, a tap keeps or lets it go at once. Its
 * own chunk, loaded only for members (product-card.tsx): a visitor's heart is a link to sign in.
 */
export default function WishlistHeart({
  productId,
  name,
  place,
}: {
  productId: string;
  name: string;
  place: 'card' | 'page';
}) {
  const ids = useWishlistIds();
  const toggle = useToggleWishlist();
  const kept = ids.data?.productIds.includes(productId) ?? false;
  return (
    <button
      type="button"
      aria-pressed={kept}
      aria-label={`收藏「${name}」`}
      title={kept ? '已收藏' : '加入收藏'}
      onClick={() => toggle.mutate({ productId, keep: !kept, name })}
      className={cn(heartClass(place), kept && 'text-danger')}
    >
      <HeartIcon filled={kept} className="size-5" />
    </button>
  );
}
