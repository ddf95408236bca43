import { queryOptions } from '@tanstack/react-query';
import type { ContentKind } from '@shop/shared/content';
import { adminKeys } from '../shared/api.ts';
import { contentApi } from './api.ts';

/** The console's site-content queries (keys under 'admin', so signing out drops them). */
export const contentKeys = {
  all: [...adminKeys.all, 'content'] as const,
  overview: () => [...adminKeys.all, 'content', 'overview'] as const,
  list: (kind: ContentKind) => [...adminKeys.all, 'content', 'list', kind] as const,
  item: (kind: ContentKind, slug: string) => [...adminKeys.all, 'content', 'item', kind, slug] as const,
};

export const contentOverviewQuery = () =>
  queryOptions({ queryKey: contentKeys.overview(), queryFn: ({ signal }) => contentApi.overview(signal) });
export const contentListQuery = (kind: ContentKind) =>
  queryOptions({ queryKey: contentKeys.list(kind), queryFn: ({ signal }) => contentApi.list(kind, signal) });
/**
 * The editor reads a document once and is not refreshed behind its back while someone types; it is
 * forgotten as soon as the editor closes, so opening it again reads the latest.
 */
export const contentItemQuery = (kind: ContentKind, slug: string) =>
  queryOptions({
    queryKey: contentKeys.item(kind, slug),
    queryFn: ({ signal }) => contentApi.item(kind, slug, signal),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
