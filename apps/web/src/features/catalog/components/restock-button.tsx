import { isServer, useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button.tsx';
import { restockQueryOptions, useRestockRequest } from '../api/restock-api.ts';

/**
 * 貨到通知 for a sold-out variant: one tap to be told by mail when it is back (once), another to
 * stop waiting. `compact` is the phone's buy bar: the button alone.
 */
export function RestockButton({ variantId, compact = false }: { variantId: string; compact?: boolean }) {
  // In the browser only: the product page is rendered once on the server for every member.
  const waiting = useQuery({ ...restockQueryOptions(), enabled: !isServer });
  const request = useRestockRequest();
  const isWaiting = waiting.data?.variantIds.includes(variantId) ?? false;
  const button = (
    <Button
      size={compact ? 'md' : 'lg'}
      variant={isWaiting ? 'secondary' : 'primary'}
      className={compact ? 'shrink-0' : 'w-full sm:w-auto'}
      aria-pressed={isWaiting}
      disabled={!waiting.isSuccess}
      loading={request.isPending}
      onClick={() => request.mutate({ variantId, wait: !isWaiting })}
    >
      {isWaiting ? '已登記貨到通知' : '貨到通知我'}
    </Button>
  );
  if (compact) return button;
  return (
    <div className="flex flex-col gap-2 sm:items-start">
      {button}
      <p className="text-sm text-ink-muted">
        {isWaiting
          ? '到貨時會寄信通知您，只寄一次。再按一次可取消。'
          : '這個規格已售完。登記後，到貨時會寄信通知您。'}
      </p>
    </div>
  );
}
