import { queryOptions } from '@tanstack/react-query';
import type {
  CompanyView,
  DownloadView,
  FaqView,
  IpRecordView,
  JobView,
  LandingView,
  MasterView,
  MediaListView,
  TeamMemberView,
  TextPageView,
} from '@shop/shared/content-views';
import type { TextPageSlug } from '@shop/shared/content';
import type { AdminMe } from '@shop/shared/admin';
import type { ContactInput, MaintenanceStatus } from '@shop/shared/site';
import { apiGet, apiPost } from '../../../lib/api-client.ts';

/**
 * `preview`: the page was opened from the console's 「預覽」 (`?preview=1`). The server answers the
 * saved drafts only to a console user allowed to read content; a preview is cached apart from the
 * published page and always fetched fresh.
 */
const get = <T>(key: readonly unknown[], url: string, preview = false, staleTime = 60_000) =>
  queryOptions({
    queryKey: ['content', ...key, ...(preview ? ['preview'] : [])],
    queryFn: ({ signal }) =>
      apiGet<T>(preview ? `${url}${url.includes('?') ? '&' : '?'}preview=1` : url, { signal }),
    staleTime: preview ? 0 : staleTime,
  });

export const contentQueries = {
  landing: (preview = false) => get<LandingView>(['landing'], '/api/content/landing', preview),
  company: (preview = false) => get<CompanyView>(['company'], '/api/content/company', preview),
  textPage: (slug: TextPageSlug, preview = false) =>
    get<TextPageView>(['page', slug], `/api/content/pages/${encodeURIComponent(slug)}`, preview),
  team: (preview = false) => get<TeamMemberView[]>(['team'], '/api/content/team', preview),
  teamMember: (slug: string, preview = false) =>
    get<TeamMemberView>(['team', slug], `/api/content/team/${encodeURIComponent(slug)}`, preview),
  masters: (preview = false) => get<MasterView[]>(['masters'], '/api/content/masters', preview),
  master: (slug: string, preview = false) =>
    get<MasterView>(['masters', slug], `/api/content/masters/${encodeURIComponent(slug)}`, preview),
  jobs: (preview = false) => get<JobView[]>(['jobs'], '/api/content/jobs', preview),
  media: (type: 'all' | 'article' | 'video', page: number, preview = false) => ({
    ...get<MediaListView>(
      ['media', type, page],
      `/api/content/media?${new URLSearchParams({ type, page: String(page) }).toString()}`,
      preview,
    ),
    placeholderData: (p: MediaListView | undefined) => p,
  }),
  downloads: (preview = false) => get<DownloadView[]>(['downloads'], '/api/content/downloads', preview),
  ip: (preview = false) => get<IpRecordView[]>(['ip'], '/api/content/ip', preview),
  faq: (preview = false) => get<FaqView>(['faq'], '/api/content/faq', preview),
  status: () =>
    queryOptions({
      queryKey: ['site', 'status'],
      queryFn: ({ signal }) => apiGet<MaintenanceStatus>('/api/site/status', { signal }),
      staleTime: 0,
    }),
};

export const sendContactMessage = (body: ContactInput) =>
  apiPost<{ referenceNo: string }>('/api/contact', body);

/**
 * Whether this visitor is a console user, for a page opened with `?preview=1`. (Same query key as
 * the console's own `adminMeQuery`, kept here so the shop's pages do not load console code.)
 */
export const previewAccessQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: ['admin', 'me'],
    queryFn: () => apiGet<AdminMe>('/api/admin/me'),
    staleTime: 60_000,
    retry: false,
    enabled,
  });
