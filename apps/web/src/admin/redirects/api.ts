import type { PageOf } from '@shop/shared/admin';
import type { AdminRedirect, RedirectBody } from '@shop/shared/admin-settings';
import { apiDelete, apiGet, apiPost, apiPut } from '../../lib/api-client.ts';
import { adminApiUrl } from '../shared/api.ts';

/** The console's redirect calls (a redirect is named by its old path). */
export const redirectsApi = {
  list: (q: { q: string; page: number }, signal?: AbortSignal) =>
    apiGet<PageOf<AdminRedirect>>(adminApiUrl('/redirects', q), { signal }),
  create: (body: RedirectBody) => apiPost<AdminRedirect>(adminApiUrl('/redirects'), body),
  update: (body: RedirectBody) => apiPut<AdminRedirect>(adminApiUrl('/redirects'), body),
  remove: (path: string) => apiDelete(adminApiUrl('/redirects', { path })),
};
