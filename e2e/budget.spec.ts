import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** gzip -9 of the files: the budget as it has been kept since the first load was measured. */
const BUDGET_BYTES = 130 * 1024;
/**
 * What the browser actually receives for the same scripts: the build's brotli-11 copies sent as
 * they are (docs/decisions/021). The performance issue's target is 100 KB; this holds today's
 * figure so it cannot grow while the work to get there goes on.
 */
const RECEIVED_BUDGET_BYTES = 113 * 1024;
const dist = path.resolve(process.env.WEB_DIST ?? 'apps/web/dist');

test('the JavaScript loaded for / stays under 130 KB gzip, and what the browser receives under its own budget', async ({ page }) => {
  const scripts = new Map<string, () => Promise<number>>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) scripts.set(url.pathname, async () => (await response.request().sizes()).responseBodySize);
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  expect(scripts.size).toBeGreaterThan(0);
  let total = 0;
  let received = 0;
  for (const [script, size] of scripts) {
    total += gzipSync(fs.readFileSync(path.join(dist, script)), { level: 9 }).length;
    received += await size();
  }
  console.log(`JavaScript for /: ${(total / 1024).toFixed(1)} KB gzip in ${scripts.size} files; ${(received / 1024).toFixed(1)} KB as received`);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  expect(received).toBeGreaterThan(0);
  expect(received).toBeLessThanOrEqual(RECEIVED_BUDGET_BYTES);
});
