import { useState } from 'react';
import { Link } from 'react-router';
import type { CartLine as Line } from '@shop/shared/cart';
import { MAX_LINE_QUANTITY } from '@shop/shared/limits';
import { formatTwd } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { QuantityStepper } from '../../../components/ui/quantity-stepper.tsx';
import { useRemoveCartItem, useUpdateCartItem } from '../api/cart-api.ts';

const PROBLEMS: Record<NonNullable<Line['problem']>, (l: Line) => string> = {
  'insufficient-stock': (l) => `庫存只剩 ${l.stock} 件，請調整數量。`,
  'sold-out': () => '這個規格已經售完，請移除後再結帳。',
  unavailable: () => '這項商品已下架，請移除後再結帳。',
};

/** One line of the cart: picture, name, price, quantity, remove; notices when something changed. */
export function CartLine({ line, productHref }: { line: Line; productHref: string }) {
  const update = useUpdateCartItem();
  const remove = useRemoveCartItem();
  // 0 typed (or − at 1) asks before the line goes: a slip of the finger must not empty the cart.
  const [asking, setAsking] = useState(false);
  return (
    <li className="flex gap-4 border-b border-line py-5 last:border-b-0">
      <Link to={productHref} className="w-20 shrink-0 sm:w-24">
        {line.image ? (
          <img
            src={line.image.src}
            alt={line.image.alt}
            width={line.image.width}
            height={line.image.height}
            className="aspect-[4/5] w-full rounded-md border border-line object-cover"
          />
        ) : (
          <div className="aspect-[4/5] w-full rounded-md border border-line bg-surface" />
        )}
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <Link to={productHref} className="font-medium text-ink hover:text-tea">
              {line.name}
            </Link>
            <p className="text-sm text-ink-muted">
              {line.variantLabel}・單價 <span className="tabular">{formatTwd(line.unitPrice)}</span>
            </p>
          </div>
          <p className="tabular font-semibold text-ink">{formatTwd(line.lineTotal)}</p>
        </div>
        {line.priceChangedFrom !== null && (
          <p className="text-sm text-[#8a5a2a]">
            價格已從 {formatTwd(line.priceChangedFrom)} 調整為 {formatTwd(line.unitPrice)}。
          </p>
        )}
        {line.problem && <Alert tone="warning">{PROBLEMS[line.problem](line)}</Alert>}
        <div className="flex flex-wrap items-end justify-between gap-3">
          {line.problem === 'unavailable' || line.problem === 'sold-out' ? (
            <span />
          ) : (
            <QuantityStepper
              label={`${line.name} 數量`}
              hideLabel
              value={line.quantity}
              max={Math.max(1, Math.min(MAX_LINE_QUANTITY, line.stock))}
              maxReason={
                line.stock > MAX_LINE_QUANTITY
                  ? `每項商品最多購買 ${MAX_LINE_QUANTITY} 件`
                  : `庫存只剩 ${line.stock} 件`
              }
              onZero={() => setAsking(true)}
              onChange={(quantity) =>
                quantity !== line.quantity && update.mutate({ variantId: line.variantId, quantity })
              }
            />
          )}
          <button
            type="button"
            className="min-h-11 px-2 text-sm text-ink-muted underline underline-offset-4 hover:text-danger"
            onClick={() => remove.mutate({ variantId: line.variantId })}
          >
            移除
          </button>
        </div>
      </div>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="要從購物車移除這項商品嗎？"
        footer={
          <>
            <Button variant="ghost" onClick={() => setAsking(false)}>
              保留
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setAsking(false);
                remove.mutate({ variantId: line.variantId });
              }}
            >
              移除
            </Button>
          </>
        }
      >
        <p>
          {line.name}（{line.variantLabel}）將從購物車移除。想保留的話，請按「保留」，數量維持 {line.quantity}{' '}
          件。
        </p>
      </Dialog>
    </li>
  );
}
