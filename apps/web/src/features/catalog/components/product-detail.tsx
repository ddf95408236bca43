import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ProductDetail, VariantView } from '@shop/shared/catalog';
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
import { ProductCard, ProductGrid } from './product-card.tsx';
import { StockMessage } from './stock-message.tsx';

/** The buy button for the chosen variant and quantity; the cart feature supplies it through the route. */
export type AddToCartSlot = (choice: { variantId: string; quantity: number; soldOut: boolean }) => ReactNode;

function VariantPicker({ product, selected, onSelect }: { product: ProductDetail; selected: VariantView; onSelect(v: VariantView): void }) {
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
                active ? 'border-tea bg-tea-soft font-semibold text-tea-dark' : 'border-line bg-surface text-ink hover:border-ink-muted',
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

function Purchase({ product, addToCart }: { product: ProductDetail; addToCart: AddToCartSlot }) {
  const firstAvailable = product.variants.find((v) => v.stockState !== 'sold-out') ?? product.variants[0];
  const [variantId, setVariantId] = useState(firstAvailable?.id);
  const [quantity, setQuantity] = useState(1);
  const selected = product.variants.find((v) => v.id === variantId) ?? firstAvailable;
  if (!selected) return <Alert tone="warning">這項商品目前沒有可選購的規格。</Alert>;
  const soldOut = selected.stockState === 'sold-out';
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1" aria-live="polite">
        <Price min={selected.price} compareAt={selected.compareAtPrice} size="lg" />
        <StockMessage state={selected.stockState} stock={selected.stock} />
      </div>
      <VariantPicker
        product={product}
        selected={selected}
        onSelect={(v) => {
          setVariantId(v.id);
          setQuantity((q) => Math.min(Math.max(1, q), Math.max(1, v.stock)));
        }}
      />
      <QuantityStepper value={quantity} onChange={setQuantity} max={Math.max(1, selected.stock)} disabled={soldOut} />
      {addToCart({ variantId: selected.id, quantity, soldOut })}
      <p className="text-xs text-ink-muted">商品編號 {selected.sku}</p>
    </div>
  );
}

export function ProductSkeleton() {
  return (
    <Container className="grid gap-8 py-8 lg:grid-cols-2 lg:py-12" >
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
            <ProductCard product={p} />
          </li>
        ))}
      </ProductGrid>
    </section>
  );
}

/** /mall/:productId once the product is loaded: gallery, variants and quantity, specs, description, related products. */
export function ProductDetailView({ product: p, addToCart }: { product: ProductDetail; addToCart: AddToCartSlot }) {
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
            <h1 className="font-serif text-2xl leading-snug text-ink sm:text-3xl">{p.name}</h1>
            <p className="text-ink-muted">{p.summary}</p>
            {p.tags.length > 0 && (
              <ul className="flex flex-wrap gap-2" aria-label="標籤">
                {p.tags.map((t) => (
                  <li key={t}>
                    <Link to={paths.mall({ q: t })} className="inline-flex min-h-8 items-center rounded-full border border-line bg-surface px-3 text-xs text-ink-muted hover:border-tea hover:text-tea">
                      #{t}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </header>
          <Purchase key={p.id} product={p} addToCart={addToCart} />
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
