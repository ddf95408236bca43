import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/form.ts';

/** Loading skeleton, error with retry, or the content. */
export function ContentState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <Alert tone="error" title="內容暫時無法載入" action={<Button size="sm" variant="secondary" onClick={() => void query.refetch()}>重新載入</Button>}>
        {errorMessage(query.error)}
      </Alert>
    );
  }
  return (
    <div role="status" aria-label="載入中" className="mt-8">
      <SkeletonText lines={6} />
    </div>
  );
}
