import type { StockState } from '@shop/shared/catalog';
import { cn } from '../../../components/ui/cn.ts';

/** In stock / only N left / sold out, in words and colour (never colour alone). */
export function StockMessage({ state, stock }: { state: StockState; stock: number }) {
  const text = state === 'sold-out' ? '已售完' : state === 'low' ? `僅剩 ${stock} 件，欲購從速` : '現貨供應';
  return (
    <p
      role="status"
      className={cn(
        'flex items-center gap-2 text-sm',
        state === 'sold-out' ? 'text-danger' : state === 'low' ? 'text-[#8a5a2a]' : 'text-success',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'inline-block size-2 rounded-full',
          state === 'sold-out' ? 'bg-danger' : state === 'low' ? 'bg-amber' : 'bg-success',
        )}
      />
      {text}
    </p>
  );
}
