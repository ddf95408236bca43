import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { ProductCard as Card } from '@shop/shared/catalog';
import { Badge } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { HeartIcon, heartClass } from './heart-icon.tsx';
import { Price } from './price.tsx';

const WishlistHeart = lazy(() => import('./wishlist-heart.tsx'));

/** Who the heart is for: a member keeps the product; a visitor is sent to sign in, then kept. */
export type HeartFor = 'member' | 'visitor';

/** The 收藏 heart of a product, on its card or beside its name. */
export function ProductHeart({
  product,
  heart,
  place,
}: {
  product: Pick<Card, 'id' | 'slug' | 'name'>;
  heart: HeartFor;
  place: 'card' | 'page';
}) {
  if (heart === 'visitor')
    return (
      <Link
        to={paths.login(paths.product(product.slug, { wish: '1' }))}
        aria-label={`收藏「${product.name}」（請先登入）`}
        className={heartClass(place)}
      >
        <HeartIcon className="size-5" />
      </Link>
    );
  return (
    <Suspense fallback={null}>
      <WishlistHeart productId={product.id} name={product.name} place={place} />
    </Suspense>
  );
}

/** Image sizes the grid shows: 2 columns on phones, 3 on tablets, 4 on desktops. */
export const GRID_IMAGE_SIZES = '(min-width: 1024px) 280px, (min-width: 640px) 33vw, 50vw';

/**
 * `priority`: one of the first cards a page shows (the mall's top row): its picture is likely the
 * page's largest paint, so it loads at once and early instead of lazily. `heart`: show the 收藏
 * heart, for a member or a visitor.
 */
export function ProductCard({
  product,
  priority = false,
  heart,
}: {
  product: Card;
  priority?: boolean;
  heart?: HeartFor | undefined;
}) {
  const onSale = product.compareAtPrice !== null && product.inStock;
  return (
    <article className="group relative flex flex-col gap-3 rounded-lg has-[a:focus-visible]:outline-3 has-[a:focus-visible]:outline-offset-4 has-[a:focus-visible]:outline-tea-dark">
      <div className="relative aspect-[4/5] overflow-hidden rounded-lg border border-line bg-surface">
        {product.image ? (
          <img
            src={product.image.src}
            srcSet={product.image.srcSet}
            sizes={GRID_IMAGE_SIZES}
            width={product.image.width}
            height={product.image.height}
            alt={product.image.alt}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
            decoding="async"
            className={`size-full object-cover transition-transform duration-500 group-hover:scale-[1.03] ${product.inStock ? '' : 'opacity-60 grayscale-[40%]'}`}
          />
        ) : (
          <div className="flex size-full items-center justify-center text-sm text-ink-muted">
            尚無商品照片
          </div>
        )}
        <div className="absolute top-2 left-2 flex flex-col gap-1">
          {!product.inStock && <Badge tone="neutral">已售完</Badge>}
          {onSale && <Badge tone="amber">優惠中</Badge>}
        </div>
        {heart && (
          <div className="absolute top-2 right-2">
            <ProductHeart product={product} heart={heart} place="card" />
          </div>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <p className="text-xs tracking-wider text-ink-muted">{product.category.name}</p>
        <h3 className="text-base leading-snug font-medium text-ink">
          <Link
            to={paths.product(product.slug)}
            className="after:absolute after:inset-0 hover:text-tea focus-visible:outline-none"
          >
            {product.name}
          </Link>
        </h3>
        <Price min={product.priceMin} max={product.priceMax} compareAt={product.compareAtPrice} />
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="flex flex-col gap-3" aria-hidden="true">
      <Skeleton className="aspect-[4/5] w-full rounded-lg" />
      <Skeleton className="h-3 w-16" />
      <Skeleton className="h-4 w-3/4" />
      <Skeleton className="h-4 w-20" />
    </div>
  );
}

export function ProductGrid({ children }: { children: React.ReactNode }) {
  return <ul className="grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3 lg:grid-cols-4">{children}</ul>;
}
