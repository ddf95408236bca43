import { errorMessage } from '../lib/form.ts';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';

/** The part of a TanStack Query result the alert needs. */
export interface RetryableQuery {
  error: unknown;
  refetch: () => unknown;
}

/**
 * "Couldn't load" for a query that failed with nothing to show: what went wrong, in the shopper's
 * words (errorMessage), and a 重新載入 button that asks again. Announced as an alert.
 */
export function LoadError({
  query,
  title,
  className,
}: {
  query: RetryableQuery;
  title?: string;
  className?: string;
}) {
  return (
    <Alert
      tone="error"
      title={title}
      className={className}
      action={
        <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
          重新載入
        </Button>
      }
    >
      {errorMessage(query.error)}
    </Alert>
  );
}
