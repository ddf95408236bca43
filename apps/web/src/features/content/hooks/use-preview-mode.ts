import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PREVIEW_PARAM } from '@shop/shared/content-preview';
import { previewAccessQueryOptions } from '../api/content-api.ts';

export interface PreviewMode {
  /** `?preview=1` is on the URL: passed on to the content queries (the server decides who gets the draft). */
  requested: boolean;
  /** This visitor is a console user who may read content, so the draft is what the page shows. */
  active: boolean;
}

/**
 * A public content page opened from the console's 「預覽」 (`?preview=1`). Only a signed-in visitor
 * can be a console user, so nobody else asks the server.
 */
export function usePreviewMode(signedIn: boolean): PreviewMode {
  const [params] = useSearchParams();
  const requested = params.get(PREVIEW_PARAM) === '1';
  const me = useQuery(previewAccessQueryOptions(requested && signedIn));
  return { requested, active: requested && Boolean(me.data?.permissions.includes('content.read')) };
}
