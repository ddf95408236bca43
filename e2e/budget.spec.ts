import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from './test.ts';
import { signInBrowser } from './support.ts';

const KB = 1024;
const dist = path.resolve(process.env.WEB_DIST ?? 'apps/web/dist');

/**
 * The JavaScript of a page's first load (a fresh browser, nothing cached), two ways: gzip -9 of
 * the files, the budget as it has been kept since the first load was measured; and what the
 * browser actually receives, the build's brotli-11 copies sent as they are (docs/decisions/021).
 * Each budget is held just above the figure measured with React 19 (docs/decisions/029), so it
 * cannot grow unnoticed. The performance issue asks for at most 115 KB received for `/`.
 */
const PAGES: Array<{ path: string; signedIn?: boolean; gzip: number; received: number }> = [
  // 133.0 KB gzip in 8 files, 114.8 KB received (74.6 and 65.6 in decision 025); 133.2 KB gzip,
  // 114.9 KB received with the visitor's 收藏 heart on the front page's cards (decision 039).
  { path: '/', gzip: 133.5 * KB, received: 115 * KB },
  // 132.0 KB gzip in 11 files, 114.1 KB received.
  { path: '/home', gzip: 132.5 * KB, received: 114.5 * KB },
  // 133.2 KB gzip in 11 files, 115.1 KB received.
  { path: '/faq', gzip: 133.5 * KB, received: 115.5 * KB },
  // A member's pages (the mall is members-only): 138.7 KB gzip in 15 files, 120.0 KB received;
  // 139.05 KB gzip with a loading view's placeholder cards and one search box (decision 037);
  // 140.7 KB gzip in 18 files, 121.8 KB received with the 收藏 hearts (their chunk and the
  // wishlist's calls, loaded for members only; decision 039).
  { path: '/mall', signedIn: true, gzip: 141 * KB, received: 122 * KB },
  // 139.1 KB gzip in 15 files, 120.3 KB received; 142.0 KB gzip in 19 files, 122.9 KB received
  // with the heart and 貨到通知 (decision 039); +0.6 KB for the measurement moments a product page
  // tells (view_item, add_to_cart; lib/shop-events.ts, shared with checkout and the completion
  // page: decision 042). The banner's code is not in it.
  { path: '/mall/dongding-oolong', signedIn: true, gzip: 142.9 * KB, received: 123.8 * KB },
];

/** The scripts a page loads until the network is idle: gzip -9 of each file, and the bytes received. */
async function firstLoad(
  page: Page,
  url: string,
): Promise<{ files: string[]; gzip: number; received: number }> {
  const scripts = new Map<string, () => Promise<number>>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.endsWith('.js'))
      scripts.set(pathname, async () => (await response.request().sizes()).responseBodySize);
  });
  const res = await page.goto(url, { waitUntil: 'networkidle' });
  expect(res?.status()).toBe(200);
  let gzip = 0;
  let received = 0;
  for (const [script, size] of scripts) {
    gzip += gzipSync(fs.readFileSync(path.join(dist, script)), { level: 9 }).length;
    received += await size();
  }
  return { files: [...scripts.keys()], gzip, received };
}

for (const budget of PAGES) {
  test(`the JavaScript loaded for ${budget.path}${budget.signedIn ? ' (signed in)' : ''} stays within its budgets`, async ({
    page,
    context,
  }) => {
    if (budget.signedIn) await signInBrowser(context);
    const { files, gzip, received } = await firstLoad(page, budget.path);
    expect(files.length).toBeGreaterThan(0);
    console.log(
      `JavaScript for ${budget.path}: ${(gzip / KB).toFixed(1)} KB gzip in ${files.length} files; ${(received / KB).toFixed(1)} KB as received`,
    );
    expect(received).toBeGreaterThan(0);
    expect(gzip).toBeLessThanOrEqual(budget.gzip);
    expect(received).toBeLessThanOrEqual(budget.received);
  });
}
