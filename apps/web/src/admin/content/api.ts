import type { ContentDocument, ContentList, ContentOverview } from '@shop/shared/admin-content';
import type { ContentKind } from '@shop/shared/content';
import { apiDelete, apiGet, apiPatch, apiPost, apiPut } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

const base = (kind: ContentKind) => adminApiUrl(`/content/${seg(kind)}`);
const itemUrl = (kind: ContentKind, slug: string) => `${base(kind)}/${seg(slug)}`;

/** The console's site-content calls: reads, drafts, publishing, order and visibility. */
export const contentApi = {
  overview: (signal?: AbortSignal) => apiGet<ContentOverview>(adminApiUrl('/content'), { signal }),
  list: (kind: ContentKind, signal?: AbortSignal) => apiGet<ContentList>(base(kind), { signal }),
  item: (kind: ContentKind, slug: string, signal?: AbortSignal) =>
    apiGet<ContentDocument>(itemUrl(kind, slug), { signal }),
  saveDraft: (
    kind: ContentKind,
    slug: string,
    data: Record<string, unknown>,
    baseRevision: string | undefined,
  ) =>
    apiPut<ContentDocument>(`${itemUrl(kind, slug)}/draft`, {
      data,
      ...(baseRevision ? { baseRevision } : {}),
    }),
  publish: (kind: ContentKind, slug: string, baseRevision: string | undefined) =>
    apiPost<ContentDocument>(`${itemUrl(kind, slug)}/publish`, baseRevision ? { baseRevision } : {}),
  discard: (kind: ContentKind, slug: string) => apiDelete<ContentDocument>(`${itemUrl(kind, slug)}/draft`),
  create: (kind: ContentKind, data: Record<string, unknown>) =>
    apiPost<ContentDocument>(base(kind), { data }),
  remove: (kind: ContentKind, slug: string) => apiDelete<{ ok: true }>(itemUrl(kind, slug)),
  setVisibility: (kind: ContentKind, slug: string, published: boolean) =>
    apiPatch<ContentDocument>(itemUrl(kind, slug), { published }),
  reorder: (kind: ContentKind, slugs: string[]) => apiPut<ContentList>(`${base(kind)}/order`, { slugs }),
};
