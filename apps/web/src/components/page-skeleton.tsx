import { Skeleton, SkeletonText } from './ui/skeleton.tsx';
import { Container } from './ui/page.tsx';

/** Shown while a page's code and data load on the first visit. */
export function PageSkeleton() {
  return (
    <Container className="py-10 sm:py-14">
      <div role="status" aria-label="載入中" className="flex flex-col gap-6">
        <Skeleton className="h-9 w-48" />
        <SkeletonText lines={4} />
      </div>
    </Container>
  );
}
