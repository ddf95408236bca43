import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { CartResponse } from '@shop/shared/cart';
import type { WishlistItem } from '@shop/shared/wishlist';
import { LoadError } from '../../../components/load-error.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useMoveToCart, useToggleWishlist, wishlistQueryOptions } from '../api/wishlist-api.ts';
import { HeartIcon } from './heart-icon.tsx';
import { Price } from './price.tsx';
import { StockMessage } from './stock-message.tsx';

function KeptProduct({ item, onMoved }: { item: WishlistItem; onMoved: (cart: CartResponse) => void }) {
  const { product, variants } = item;
  const buyable = variants.filter((v) => v.stockState !== 'sold-out');
  const [variantId, setVariantId] = useState(buyable[0]?.id ?? variants[0]?.id ?? '');
  const chosen = variants.find((v) => v.id === variantId) ?? variants[0];
  const move = useMoveToCart(onMoved);
  const drop = useToggleWishlist();
  const soldOut = !chosen || chosen.stockState === 'sold-out';
  const selectId = `wish-variant-${product.id}`;
  return (
    <li className="grid grid-cols-[88px_1fr] gap-4 border-b border-line py-5 sm:grid-cols-[112px_1fr_auto] sm:items-center">
      <Link
        to={paths.product(product.slug)}
        className="block self-start overflow-hidden rounded-md border border-line"
      >
        {product.image ? (
          <img
            src={product.image.src}
            srcSet={product.image.srcSet}
            sizes="112px"
            width={product.image.width}
            height={product.image.height}
            alt={product.image.alt}
            loading="lazy"
            className={`aspect-[4/5] w-full object-cover ${product.inStock ? '' : 'opacity-60'}`}
          />
        ) : (
          <div className="flex aspect-[4/5] items-center justify-center bg-surface text-xs text-ink-muted">
            尚無照片
          </div>
        )}
      </Link>
      <div className="flex min-w-0 flex-col gap-1.5">
        <p className="text-xs tracking-wider text-ink-muted">{product.category.name}</p>
        <h2 className="font-medium text-ink">
          <Link to={paths.product(product.slug)} className="hover:text-tea">
            {product.name}
          </Link>
        </h2>
        {chosen && <Price min={chosen.price} compareAt={chosen.compareAtPrice} />}
        {chosen && <StockMessage state={chosen.stockState} stock={chosen.stock} />}
        {variants.length > 1 && (
          <div className="mt-1 flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm text-ink-muted">
              規格
            </label>
            <select
              id={selectId}
              value={variantId}
              onChange={(e) => setVariantId(e.target.value)}
              className="min-h-10 rounded-md border border-line bg-surface px-2 text-sm"
            >
              {variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                  {v.stockState === 'sold-out' ? '（已售完）' : ''}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <div className="col-span-2 flex gap-2 sm:col-span-1 sm:flex-col sm:items-stretch">
        {soldOut ? (
          <ButtonLink to={paths.product(product.slug)} variant="secondary" className="flex-1">
            到商品頁登記貨到通知
          </ButtonLink>
        ) : (
          <Button
            className="flex-1"
            loading={move.isPending}
            onClick={() => move.mutate({ productId: product.id, variantId, name: product.name })}
          >
            加入購物車
          </Button>
        )}
        <Button
          variant="ghost"
          loading={drop.isPending}
          onClick={() => drop.mutate({ productId: product.id, keep: false, name: product.name })}
        >
          移除
        </Button>
      </div>
    </li>
  );
}

/** /member/wishlist: the kept products as they are now, each one tap from the cart. */
export function WishlistPage({ onMoved }: { onMoved: (cart: CartResponse) => void }) {
  const list = useQuery(wishlistQueryOptions());
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="收藏清單" lead="收藏的茶品都在這裡，價格與庫存是現在的樣子。" />
      {list.isPending ? (
        <ul aria-label="載入收藏中" className="flex flex-col gap-4">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="grid grid-cols-[88px_1fr] gap-4">
              <Skeleton className="aspect-[4/5] w-full rounded-md" />
              <div className="flex flex-col gap-2">
                <Skeleton className="h-4 w-1/2" />
                <Skeleton className="h-4 w-24" />
              </div>
            </li>
          ))}
        </ul>
      ) : list.isError ? (
        <LoadError query={list} title="收藏清單暫時無法載入" />
      ) : list.data.items.length === 0 ? (
        <EmptyState
          icon={<HeartIcon className="size-12" />}
          title="還沒有收藏的茶品"
          description="在商城看到喜歡的茶，按下愛心就會收進這裡，之後回來一鍵加入購物車。"
          action={<ButtonLink to={paths.mall()}>逛逛商城</ButtonLink>}
        />
      ) : (
        <ul>
          {list.data.items.map((item) => (
            <KeptProduct key={item.product.id} item={item} onMoved={onMoved} />
          ))}
        </ul>
      )}
    </div>
  );
}
