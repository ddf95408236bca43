import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from './test.ts';

/**
 * gzip -9 of the files: the budget as it has been kept since the first load was measured (130 KB),
 * raised by what hydrating a server-rendered page costs (docs/decisions/024): 132.7 KB in 8 files.
 */
const BUDGET_BYTES = 133 * 1024;
/**
 * What the browser actually receives for the same scripts: the build's brotli-11 copies sent as
 * they are (docs/decisions/021): 114.4 KB since pages hydrate (docs/decisions/024). The
 * performance issue's target is 100 KB, below what React, its router and TanStack Query weigh
 * together (≈ 96 KB); this holds today's figure so it cannot grow.
 */
const RECEIVED_BUDGET_BYTES = 115 * 1024;
const dist = path.resolve(process.env.WEB_DIST ?? 'apps/web/dist');

test('the JavaScript loaded for / stays under its gzip budget, and what the browser receives under its own', async ({ page }) => {
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
