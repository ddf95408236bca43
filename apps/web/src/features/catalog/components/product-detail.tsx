import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import type { ProductDetail, VariantView } from '@shop/shared/catalog';
import { MAX_LINE_QUANTITY } from '@shop/shared/limits';
import { DescriptionBlocks } from '../../../components/rich-text.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Container } from '../../../components/ui/page.tsx';
import { QuantityStepper } from '../../../components/ui/quantity-stepper.tsx';
import { Skeleton, SkeletonText } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { relatedQueryOptions } from '../api/catalog-api.ts';
import { Gallery } from './gallery.tsx';
import { Price } from './price.tsx';
import { ProductCard, ProductGrid, ProductHeart } from './product-card.tsx';
import { RestockButton } from './restock-button.tsx';
import { StockMessage } from './stock-message.tsx';

/** The buy button for the chosen variant and quantity; the cart feature supplies it through the route. `compact` is the phone's buy bar. */
export type AddToCartSlot = (choice: {
  variantId: string;
  quantity: number;
  soldOut: boolean;
  compact?: boolean;
}) => ReactNode;

function VariantPicker({
  product,
  selected,
  onSelect,
}: {
  product: ProductDetail;
  selected: VariantView;
  onSelect(v: VariantView): void;
}) {
  if (product.variants.length < 2) return null;
  const name = product.optionNames.join('／') || '規格';
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-ink">{name}</legend>
      <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={name}>
        {product.variants.map((v) => {
          const active = v.id === selected.id;
          return (
            <button
              key={v.id}
              type="button"
              role="radio"
              aria-checked={active}
              onClick={() => onSelect(v)}
              className={cn(
                'min-h-11 rounded-md border px-4 text-[0.9375rem] transition-colors',
                active
                  ? 'border-tea bg-tea-soft font-semibold text-tea-dark'
                  : 'border-line bg-surface text-ink hover:border-ink-muted',
                v.stockState === 'sold-out' && 'text-ink-muted line-through decoration-ink-muted/60',
              )}
            >
              {v.label}
              {v.stockState === 'sold-out' && <span className="sr-only">（已售完）</span>}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The most of one variant a shopper can put in the cart, and why, in the words the quantity box uses. */
function purchaseLimit(stock: number): { max: number; reason: string } {
  return stock > MAX_LINE_QUANTITY
    ? { max: MAX_LINE_QUANTITY, reason: `每項商品最多購買 ${MAX_LINE_QUANTITY} 件` }
    : { max: Math.max(1, stock), reason: `庫存只剩 ${stock} 件` };
}

/** The variant named by the address (`?variant=SKU`, any case), else the first one in stock. */
function initialVariant(product: ProductDetail, sku: string | null): VariantView | undefined {
  const wanted = sku?.toUpperCase();
  return (
    (wanted ? product.variants.find((v) => v.sku.toUpperCase() === wanted) : undefined) ??
    product.variants.find((v) => v.stockState !== 'sold-out') ??
    product.variants[0]
  );
}

/**
 * The chosen variant goes into the address (`?variant=SKU`) so a reload or a shared link shows it.
 * The address is replaced in place, not navigated: a variant is not a new page for Back, and the
 * route's loader (the redirect check) has no reason to run again
 * (docs/decisions/019-titles-quantities-phone-layout.md).
 */
function rememberVariant(sku: string) {
  const url = new URL(window.location.href);
  url.searchParams.set('variant', sku);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * On a phone the price and 加入購物車 ride along at the bottom of the screen while the page's own
 * buy box is out of sight, so they are within reach from the first screen. It is fixed, so nothing
 * moves when it comes and goes, and the page keeps room for it below the footer (index.css).
 */
function BuyBar({
  selected,
  quantity,
  showLabel,
  hidden,
  children,
}: {
  selected: VariantView;
  quantity: number;
  showLabel: boolean;
  hidden: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-label="購買"
      data-buy-bar
      inert={hidden}
      className={cn(
        'fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface/95 px-4 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] shadow-[0_-4px_16px_rgb(31_42_36/0.06)] backdrop-blur transition-transform duration-200 lg:hidden',
        hidden && 'translate-y-full',
      )}
    >
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <Price min={selected.price} compareAt={selected.compareAtPrice} />
          {(showLabel || quantity > 1) && (
            <p className="truncate text-xs text-ink-muted">
              {[showLabel && selected.label, quantity > 1 && `${quantity} 件`].filter(Boolean).join('・')}
            </p>
          )}
        </div>
        {children}
      </div>
    </section>
  );
}

/**
 * Whether any of the element shows above the buy bar's strip at the bottom of the screen (the bar
 * steps aside while the page's own buy box is in sight, so it never covers the quantity).
 */
function useOnScreen(ref: React.RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOnScreen(Boolean(entry?.isIntersecting)), {
      rootMargin: '0px 0px -80px 0px',
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}

function Purchase({
  product,
  addToCart,
  variantSku,
}: {
  product: ProductDetail;
  addToCart: AddToCartSlot;
  variantSku: string | null;
}) {
  const [variantId, setVariantId] = useState(() => initialVariant(product, variantSku)?.id);
  const [quantity, setQuantity] = useState(1);
  const [adjusted, setAdjusted] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const boxOnScreen = useOnScreen(box);
  const selected = product.variants.find((v) => v.id === variantId) ?? initialVariant(product, null);
  if (!selected) return <Alert tone="warning">這項商品目前沒有可選購的規格。</Alert>;
  const soldOut = selected.stockState === 'sold-out';
  const limit = purchaseLimit(selected.stock);
  return (
    <div ref={box} className="flex flex-col gap-5">
      <div className="flex flex-col gap-1" aria-live="polite">
        <Price min={selected.price} compareAt={selected.compareAtPrice} size="lg" />
        <StockMessage state={selected.stockState} stock={selected.stock} />
      </div>
      <VariantPicker
        product={product}
        selected={selected}
        onSelect={(v) => {
          setVariantId(v.id);
          rememberVariant(v.sku);
          const next = purchaseLimit(v.stock);
          // A quantity the new variant cannot take is brought down, and the shopper is told.
          if (v.stockState !== 'sold-out' && quantity > next.max) {
            setQuantity(next.max);
            setAdjusted(`${v.label}${next.reason}，數量已調整為 ${next.max}`);
          } else setAdjusted(null);
        }}
      />
      {/* A sold-out variant has no quantity to choose (and no 「最多可選」 to say). */}
      {!soldOut && (
        <div className="flex flex-col gap-1.5">
          <QuantityStepper
            value={quantity}
            onChange={(n) => {
              setAdjusted(null);
              setQuantity(n);
            }}
            max={limit.max}
            maxReason={limit.reason}
          />
          {adjusted && (
            <p role="status" className="text-sm text-[#8a5a2a]">
              {adjusted}
            </p>
          )}
        </div>
      )}
      {soldOut ? (
        <RestockButton key={selected.id} variantId={selected.id} />
      ) : (
        addToCart({ variantId: selected.id, quantity, soldOut })
      )}
      <p className="text-xs text-ink-muted">商品編號 {selected.sku}</p>
      <BuyBar
        selected={selected}
        quantity={soldOut ? 1 : quantity}
        showLabel={product.variants.length > 1}
        hidden={boxOnScreen}
      >
        {soldOut ? (
          <RestockButton key={selected.id} variantId={selected.id} compact />
        ) : (
          addToCart({ variantId: selected.id, quantity, soldOut, compact: true })
        )}
      </BuyBar>
    </div>
  );
}

export function ProductSkeleton() {
  return (
    <Container className="grid gap-8 py-8 lg:grid-cols-2 lg:py-12">
      <div role="status" aria-label="載入商品中">
        <Skeleton className="aspect-[4/5] w-full rounded-xl" />
      </div>
      <div className="flex flex-col gap-4">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-9 w-3/4" />
        <SkeletonText lines={3} />
        <Skeleton className="h-8 w-32" />
        <Skeleton className="h-12 w-48" />
      </div>
    </Container>
  );
}

function Related({ idOrSlug }: { idOrSlug: string }) {
  const related = useQuery(relatedQueryOptions(idOrSlug));
  if (!related.data || related.data.items.length === 0) return null;
  return (
    <section aria-labelledby="related-title" className="mt-16 border-t border-line pt-10">
      <h2 id="related-title" className="mb-6 font-serif text-2xl text-ink">
        您可能也會喜歡
      </h2>
      <ProductGrid>
        {related.data.items.map((p) => (
          <li key={p.id}>
            <ProductCard product={p} heart="member" />
          </li>
        ))}
      </ProductGrid>
    </section>
  );
}

/** /mall/:productId once the product is loaded: gallery, variants and quantity, specs, description, related products. */
export function ProductDetailView({
  product: p,
  addToCart,
}: {
  product: ProductDetail;
  addToCart: AddToCartSlot;
}) {
  // A real navigation to this product with another ?variant= starts the buy box again from it.
  const { search } = useLocation();
  return (
    <Container className="py-6 sm:py-10">
      <nav aria-label="麵包屑" className="mb-6 text-sm text-ink-muted">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link to={paths.mall()} className="hover:text-tea">
              商城
            </Link>
          </li>
          {p.category.parent && (
            <li className="flex items-center gap-1.5">
              <span aria-hidden="true">/</span>
              <Link to={paths.mall({ category: p.category.parent.slug })} className="hover:text-tea">
                {p.category.parent.name}
              </Link>
            </li>
          )}
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true">/</span>
            <Link to={paths.mall({ category: p.category.slug })} className="hover:text-tea">
              {p.category.name}
            </Link>
          </li>
        </ol>
      </nav>

      <div className="grid gap-8 lg:grid-cols-2 lg:gap-12">
        <Gallery images={p.images} name={p.name} />
        <div className="flex flex-col gap-6">
          <header className="flex flex-col gap-3">
            <div className="flex items-start justify-between gap-3">
              <h1 className="font-serif text-2xl leading-snug text-ink sm:text-3xl">{p.name}</h1>
              <ProductHeart product={p} heart="member" place="page" />
            </div>
            <p className="text-ink-muted">{p.summary}</p>
            {p.tags.length > 0 && (
              <ul className="flex flex-wrap gap-2" aria-label="標籤">
                {p.tags.map((t) => (
                  <li key={t}>
                    <Link
                      to={paths.mall({ q: t })}
                      className="inline-flex min-h-8 items-center rounded-full border border-line bg-surface px-3 text-xs text-ink-muted hover:border-tea hover:text-tea"
                    >
                      #{t}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </header>
          <Purchase
            key={`${p.id}${search}`}
            product={p}
            addToCart={addToCart}
            variantSku={new URLSearchParams(search).get('variant')}
          />
          {p.specs.length > 0 && (
            <section aria-labelledby="specs-title" className="rounded-lg border border-line bg-surface">
              <h2 id="specs-title" className="border-b border-line px-5 py-3 text-base font-semibold">
                商品規格
              </h2>
              <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 px-5 py-4 text-sm">
                {p.specs.map((s) => (
                  <div key={s.label} className="contents">
                    <dt className="text-ink-muted">{s.label}</dt>
                    <dd className="text-ink">{s.value}</dd>
                  </div>
                ))}
              </dl>
            </section>
          )}
        </div>
      </div>

      {p.description.length > 0 && (
        <section aria-labelledby="description-title" className="mt-14">
          <h2 id="description-title" className="mb-5 font-serif text-2xl text-ink">
            商品介紹
          </h2>
          <DescriptionBlocks blocks={p.description} />
        </section>
      )}
      <Related idOrSlug={p.slug} />
    </Container>
  );
}
