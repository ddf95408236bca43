import { queryOptions } from '@tanstack/react-query';
import type { ContentDocument, ContentList, ContentOverview } from '@shop/shared/admin-content';
import type { ContentKind } from '@shop/shared/content';
import { apiDelete, apiGet, apiPatch, apiPost, apiPut } from '../../lib/api-client.ts';

/** The console's site-content queries (keys under 'admin', so signing out drops them) and writes. */
export const contentKeys = {
  all: ['admin', 'content'] as const,
  overview: () => ['admin', 'content', 'overview'] as const,
  list: (kind: ContentKind) => ['admin', 'content', 'list', kind] as const,
  item: (kind: ContentKind, slug: string) => ['admin', 'content', 'item', kind, slug] as const,
};

const base = (kind: ContentKind) => `/api/admin/content/${encodeURIComponent(kind)}`;
const itemUrl = (kind: ContentKind, slug: string) => `${base(kind)}/${encodeURIComponent(slug)}`;

export const contentOverviewQuery = () => queryOptions({ queryKey: contentKeys.overview(), queryFn: ({ signal }) => apiGet<ContentOverview>('/api/admin/content', { signal }) });
export const contentListQuery = (kind: ContentKind) => queryOptions({ queryKey: contentKeys.list(kind), queryFn: ({ signal }) => apiGet<ContentList>(base(kind), { signal }) });
/**
 * The editor reads a document once and is not refreshed behind its back while someone types; it is
 * forgotten as soon as the editor closes, so opening it again reads the latest.
 */
export const contentItemQuery = (kind: ContentKind, slug: string) =>
  queryOptions({
    queryKey: contentKeys.item(kind, slug),
    queryFn: ({ signal }) => apiGet<ContentDocument>(itemUrl(kind, slug), { signal }),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export const contentApi = {
  saveDraft: (kind: ContentKind, slug: string, data: Record<string, unknown>, baseRevision: string | undefined) =>
    apiPut<ContentDocument>(`${itemUrl(kind, slug)}/draft`, { data, ...(baseRevision ? { baseRevision } : {}) }),
  publish: (kind: ContentKind, slug: string, baseRevision: string | undefined) => apiPost<ContentDocument>(`${itemUrl(kind, slug)}/publish`, baseRevision ? { baseRevision } : {}),
  discard: (kind: ContentKind, slug: string) => apiDelete<ContentDocument>(`${itemUrl(kind, slug)}/draft`),
  create: (kind: ContentKind, data: Record<string, unknown>) => apiPost<ContentDocument>(base(kind), { data }),
  remove: (kind: ContentKind, slug: string) => apiDelete<{ ok: true }>(itemUrl(kind, slug)),
  setVisibility: (kind: ContentKind, slug: string, published: boolean) => apiPatch<ContentDocument>(itemUrl(kind, slug), { published }),
  reorder: (kind: ContentKind, slugs: string[]) => apiPut<ContentList>(`${base(kind)}/order`, { slugs }),
};

/** yyyy/MM/dd HH:mm in Taiwan time. */
export function formatUpdated(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}/${get('month')}/${get('day')} ${get('hour')}:${get('minute')}`;
}
