import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

const BUDGET_BYTES = 130 * 1024;
const dist = path.resolve('apps/web/dist');

test('the JavaScript loaded for / stays under 130 KB gzip', async ({ page }) => {
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  expect(scripts.size).toBeGreaterThan(0);
  let total = 0;
  for (const script of scripts) total += gzipSync(fs.readFileSync(path.join(dist, script)), { level: 9 }).length;
  console.log(`JavaScript for /: ${(total / 1024).toFixed(1)} KB gzip in ${scripts.size} files`);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
