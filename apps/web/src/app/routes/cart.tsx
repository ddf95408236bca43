import { useQuery } from '@tanstack/react-query';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Container, PageHeader } from '../../components/ui/page.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { paths } from '../../config/paths.ts';
import { cartQueryOptions } from '../../features/cart/api/cart-api.ts';
import { CartLine } from '../../features/cart/components/cart-line.tsx';
import { useShippingRules } from '../../features/checkout/api/shipping-rules.ts';
import { LoadError } from '../../components/load-error.tsx';

export default function CartPage() {
  const cart = useQuery(cartQueryOptions());
  const shipping = useShippingRules();
  const data = cart.data;
  const problems = data?.lines.filter((l) => l.problem !== null).length ?? 0;

  return (
    <Container className="py-8 sm:py-12">
      <PageHeader
        title="購物車"
        lead={data && data.lines.length > 0 ? `共 ${data.itemCount} 件商品` : undefined}
      />
      {cart.isError && !data ? (
        <LoadError query={cart} title="購物車暫時無法載入" className="mt-8" />
      ) : !data ? (
        <div className="mt-8 flex flex-col gap-4" role="status" aria-label="載入購物車">
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-28 w-full" />
        </div>
      ) : data.lines.length === 0 ? (
        <div className="mt-8">
          <EmptyState
            title="購物車還是空的"
            description="到商城挑一款適合今天的茶吧。"
            action={<ButtonLink to={paths.mall()}>前往商城</ButtonLink>}
          />
        </div>
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_340px]">
          <ul className="rounded-lg border border-line bg-surface px-4 sm:px-6">
            {data.lines.map((line) => (
              <CartLine key={line.variantId} line={line} productHref={paths.product(line.slug)} />
            ))}
          </ul>
          <aside className="flex h-fit flex-col gap-4 rounded-lg border border-line bg-surface p-5 lg:sticky lg:top-24">
            <h2 className="text-lg font-semibold">訂單摘要</h2>
            <dl className="flex flex-col gap-2 text-sm">
              <div className="flex justify-between">
                <dt className="text-ink-muted">商品小計</dt>
                <dd className="tabular">{formatTwd(data.subtotal)}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-ink-muted">運費</dt>
                <dd>結帳時依配送方式計算</dd>
              </div>
            </dl>
            {shipping.data ? (
              <p className="text-xs text-ink-muted">
                宅配滿 {formatTwd(shipping.data.home.freeOver)}、超商取貨滿{' '}
                {formatTwd(shipping.data.cvs.freeOver)} 免運費。
              </p>
            ) : (
              !shipping.isError && <Skeleton className="h-4 w-56" />
            )}
            {problems > 0 && <Alert tone="warning">有 {problems} 項商品需要調整後才能結帳。</Alert>}
            {problems > 0 ? (
              <Button size="lg" disabled>
                前往結帳
              </Button>
            ) : (
              <ButtonLink to={paths.payment()} size="lg">
                前往結帳
              </ButtonLink>
            )}
            <ButtonLink to={paths.mall()} variant="ghost">
              繼續購物
            </ButtonLink>
          </aside>
        </div>
      )}
    </Container>
  );
}
