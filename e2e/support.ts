import type { BrowserContext, Page } from '@playwright/test';

/** Signs the browser in through the test-only helper (exists only under NODE_ENV=test). */
export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export async function signInBrowser(context: BrowserContext, email = uniqueEmail(), role: 'customer' | 'owner' | 'staff' | 'viewer' = 'customer') {
  const res = await context.request.post('/api/test/session', { data: { email, role } });
  if (!res.ok()) throw new Error(`test sign-in failed: ${res.status()}`);
  return (await res.json()) as { user: { uid: string; email: string } };
}

/** Counts full document loads of the page (initial load and every reload). */
export function countDocumentLoads(page: Page): { readonly count: number; urls: string[] } {
  const state = { count: 0, urls: [] as string[] };
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      state.count += 1;
      state.urls.push(request.url());
    }
  });
  return state;
}
