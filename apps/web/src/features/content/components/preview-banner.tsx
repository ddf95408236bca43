import { lazy, Suspense } from 'react';

// The banner is loaded only when a preview is asked for, so shoppers never download it.
const PreviewBannerBody = lazy(() => import('./preview-banner-body.tsx'));

/** Says plainly that the page shows an unpublished draft, with the way back to the editor. */
export function PreviewBanner({ active, editor }: { active: boolean; editor: string }) {
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <PreviewBannerBody editor={editor} />
    </Suspense>
  );
}
