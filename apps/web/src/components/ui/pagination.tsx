import { Button } from './button.tsx';
import { cn } from './cn.ts';

/** Previous / next with 「第 n / m 頁」; nothing when everything fits on one page. */
export function Pagination({
  page,
  totalPages,
  onPage,
  className,
}: {
  page: number;
  totalPages: number;
  onPage(page: number): void;
  className?: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="分頁" className={cn('flex items-center justify-center gap-3', className)}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        上一頁
      </Button>
      <span className="tabular text-sm text-ink-muted">
        第 {page} / {totalPages} 頁
      </span>
      <Button variant="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        下一頁
      </Button>
    </nav>
  );
}
