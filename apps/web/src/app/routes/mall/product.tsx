import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ProductDetail } from '@shop/shared/catalog';
import { useParams } from 'react-router';
import { NOT_FOUND_TITLE } from '@shop/shared/routes';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Container } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { productQueryOptions } from '../../../features/catalog/api/product-api.ts';
import { useToggleWishlist } from '../../../features/catalog/api/wishlist-api.ts';
import { ProductDetailView, ProductSkeleton } from '../../../features/catalog/components/product-detail.tsx';
import { AddToCartButton } from '../../../features/cart/components/add-to-cart-button.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { trackShopEvent } from '../../../lib/shop-events.ts';

/** A variant of the product as a moment's item (docs/decisions/042). */
function itemOf(product: ProductDetail, variantId: string, quantity: number) {
  const variant = product.variants.find((v) => v.id === variantId) ?? product.variants[0];
  return variant
    ? { id: variant.sku, name: product.name, variant: variant.label, price: variant.price, quantity }
    : null;
}

/**
 * `?wish=1`: a visitor tapped a heart and signed in; keep the product now, once, and take the
 * parameter out of the address in place (no navigation: the route's loader has no reason to run).
 */
function useWishOnArrival(product: { id: string; name: string } | undefined) {
  const keep = useToggleWishlist();
  const mutate = keep.mutate;
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!product || url.searchParams.get('wish') !== '1') return;
    url.searchParams.delete('wish');
    window.history.replaceState(window.history.state, '', url);
    mutate({ productId: product.id, keep: true, name: product.name });
  }, [product, mutate]);
}

export default function ProductPage() {
  const { productId = '' } = useParams();
  const product = useQuery(productQueryOptions(productId));
  useWishOnArrival(product.data);
  const missing = product.error instanceof ApiError && product.error.status === 404;
  usePageTitle(product.data?.name ?? (missing ? NOT_FOUND_TITLE : undefined));
  const viewed = product.data;
  useEffect(() => {
    const item = viewed && itemOf(viewed, '', 1);
    if (item) trackShopEvent({ name: 'view_item', value: item.price, items: [item] });
  }, [viewed?.id]); // eslint-disable-line react-hooks/exhaustive-deps -- once per product shown

  if (product.isPending) return <ProductSkeleton />;
  if (product.isError) {
    return (
      <Container className="py-12">
        {missing ? (
          <EmptyState
            title="找不到這項商品"
            description="這項商品可能已經下架或網址有誤。歡迎看看商城裡的其他茶品。"
            action={<ButtonLink to={paths.mall()}>回到商城</ButtonLink>}
          />
        ) : (
          <LoadError query={product} title="商品暫時無法載入" />
        )}
      </Container>
    );
  }
  return (
    <ProductDetailView
      product={product.data}
      addToCart={({ variantId, quantity, soldOut, compact }) => (
        <AddToCartButton
          variantId={variantId}
          quantity={quantity}
          soldOut={soldOut}
          compact={compact}
          cartHref={paths.cart()}
          onAdded={() => {
            const item = itemOf(product.data, variantId, quantity);
            if (item) trackShopEvent({ name: 'add_to_cart', value: item.price * quantity, items: [item] });
          }}
        />
      )}
    />
  );
}
