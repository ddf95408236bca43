import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { useAddToCart } from '../api/cart-api.ts';

/**
 * The product page's add-to-cart: one click, progress while it saves, a message when done.
 * `compact` is the phone's buy bar: the button alone (the message says where the cart is).
 */
export function AddToCartButton({
  variantId,
  quantity,
  soldOut,
  cartHref,
  compact = false,
  onAdded,
}: {
  variantId: string;
  quantity: number;
  soldOut: boolean;
  cartHref: string;
  compact?: boolean;
  /** After the server added it (the shop's measurement moments). */
  onAdded?: () => void;
}) {
  const add = useAddToCart(() => {
    toast.success(`已加入購物車（${quantity} 件）`);
    onAdded?.();
  });
  const button = (
    <Button
      size={compact ? 'md' : 'lg'}
      className={compact ? 'shrink-0' : 'w-full sm:w-auto'}
      disabled={soldOut}
      loading={add.isPending}
      onClick={() => add.mutate({ variantId, quantity })}
    >
      {soldOut ? '已售完' : add.isPending ? '加入中…' : '加入購物車'}
    </Button>
  );
  if (compact) return button;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      {button}
      {add.isSuccess && (
        <Link to={cartHref} className="text-center text-tea underline underline-offset-4 sm:text-left">
          前往購物車結帳 →
        </Link>
      )}
    </div>
  );
}
