import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/load-error.tsx';

/** Loading skeleton, error with retry, or the content. */
export function ContentState<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return <LoadError query={query} title="內容暫時無法載入" />;
  }
  return (
    <div role="status" aria-label="載入中" className="mt-8">
      <SkeletonText lines={6} />
    </div>
  );
}
