import { queryOptions } from '@tanstack/react-query';
import type { CompanyView, DownloadView, FaqView, IpRecordView, JobView, LandingView, MasterView, MediaListView, TeamMemberView, TextPageView } from '@shop/shared/content-views';
import type { TextPageSlug } from '@shop/shared/content';
import type { ContactInput, MaintenanceStatus } from '@shop/shared/site';
import { apiGet, apiPost } from '../../../lib/api-client.ts';

const get = <T>(key: readonly unknown[], url: string, staleTime = 60_000) =>
  queryOptions({ queryKey: ['content', ...key], queryFn: ({ signal }) => apiGet<T>(url, { signal }), staleTime });

export const contentQueries = {
  landing: () => get<LandingView>(['landing'], '/api/content/landing'),
  company: () => get<CompanyView>(['company'], '/api/content/company'),
  textPage: (slug: TextPageSlug) => get<TextPageView>(['page', slug], `/api/content/pages/${slug}`),
  team: () => get<TeamMemberView[]>(['team'], '/api/content/team'),
  teamMember: (slug: string) => get<TeamMemberView>(['team', slug], `/api/content/team/${encodeURIComponent(slug)}`),
  masters: () => get<MasterView[]>(['masters'], '/api/content/masters'),
  master: (slug: string) => get<MasterView>(['masters', slug], `/api/content/masters/${encodeURIComponent(slug)}`),
  jobs: () => get<JobView[]>(['jobs'], '/api/content/jobs'),
  media: (type: 'all' | 'article' | 'video', page: number) => ({ ...get<MediaListView>(['media', type, page], `/api/content/media?type=${type}&page=${page}`), placeholderData: (p: MediaListView | undefined) => p }),
  downloads: () => get<DownloadView[]>(['downloads'], '/api/content/downloads'),
  ip: () => get<IpRecordView[]>(['ip'], '/api/content/ip'),
  faq: () => get<FaqView>(['faq'], '/api/content/faq'),
  status: () => queryOptions({ queryKey: ['site', 'status'], queryFn: ({ signal }) => apiGet<MaintenanceStatus>('/api/site/status', { signal }), staleTime: 0 }),
};

export const sendContactMessage = (body: ContactInput) => apiPost<{ referenceNo: string }>('/api/contact', body);
