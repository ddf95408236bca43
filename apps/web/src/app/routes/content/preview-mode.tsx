import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { AdminMe } from '@shop/shared/admin';
import { PREVIEW_PARAM } from '@shop/shared/content-preview';
import { apiGet } from '../../../lib/api-client.ts';
import { useIsLogin } from '../../../features/auth/stores/user-store.ts';

// The banner is loaded only when a preview is asked for, so shoppers never download it.
const PreviewBannerBody = lazy(() => import('./preview-banner.tsx'));

/**
 * A public content page opened from the console's 「預覽」 (`?preview=1`): `requested` is passed on
 * to the content queries (the server decides who gets the draft); `active` says this visitor is a
 * console user who may read content, so the draft is what the page shows. (Same query key as the
 * console's own `adminMeQuery`, kept here so the shop's pages do not load console code.)
 */
export function usePreviewMode(): { requested: boolean; active: boolean } {
  const [params] = useSearchParams();
  const requested = params.get(PREVIEW_PARAM) === '1';
  const isLogin = useIsLogin();
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: () => apiGet<AdminMe>('/api/admin/me'), staleTime: 60_000, retry: false, enabled: requested && isLogin });
  return { requested, active: requested && Boolean(me.data?.permissions.includes('content.read')) };
}

/** Says plainly that the page shows an unpublished draft, with the way back to the editor. */
export function PreviewBanner({ active, editor }: { active: boolean; editor: string }) {
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <PreviewBannerBody editor={editor} />
    </Suspense>
  );
}
