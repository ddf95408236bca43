import { formatTwd, formatTwdRange } from '@shop/shared/money';
import { cn } from '../../../components/ui/cn.ts';

/** A price, with the struck-through compare-at price when on sale. Amber marks sale prices only. */
export function Price({
  min,
  max = min,
  compareAt,
  size = 'md',
  className,
}: {
  min: number;
  max?: number;
  compareAt?: number | null;
  size?: 'md' | 'lg';
  className?: string;
}) {
  const onSale = compareAt !== null && compareAt !== undefined && compareAt > min;
  return (
    <p className={cn('tabular flex flex-wrap items-baseline gap-x-2', className)}>
      <span
        className={cn(
          size === 'lg' ? 'text-2xl font-semibold' : 'text-base font-semibold',
          onSale ? 'text-[#8a5a2a]' : 'text-ink',
        )}
      >
        {onSale && <span className="sr-only">特價 </span>}
        {formatTwdRange(min, max)}
      </span>
      {onSale && (
        <s className={cn('text-ink-muted', size === 'lg' ? 'text-base' : 'text-sm')}>
          <span className="sr-only">原價 </span>
          {formatTwd(compareAt)}
        </s>
      )}
    </p>
  );
}
