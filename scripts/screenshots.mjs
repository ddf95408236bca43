#!/usr/bin/env node
// Takes full-page screenshots of pages at 390 px and 1280 px in Debian's Chromium.
// Usage: node scripts/screenshots.mjs http://localhost:3000 / /login /mall   (files go to test-results/screenshots)
import fs from 'node:fs';
import { chromium } from '@playwright/test';

const [base = 'http://localhost:3000', ...pages] = process.argv.slice(2);
const out = 'test-results/screenshots';
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
// SCREENSHOT_SIGN_IN=email (and SCREENSHOT_ROLE=owner|staff|viewer) signs in through the test-only helper (NODE_ENV=test servers).
const cookie = process.env.SCREENSHOT_SIGN_IN;
const role = process.env.SCREENSHOT_ROLE ?? 'customer';
for (const width of [390, 1280]) {
  const context = await browser.newContext({
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    viewport: { width, height: width < 500 ? 844 : 900 },
  });
  if (cookie) await context.request.post(`${base}/api/test/session`, { data: { email: cookie, role } });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && console.log(`  console error: ${m.text()}`));
  for (const p of pages.length ? pages : ['/']) {
    const res = await page.goto(base + p, { waitUntil: 'networkidle' });
    // Scroll through once so lazy images load as they would for a reader, then back to the top.
    // (Runs in the page: globalThis is its window.)
    await page.evaluate(async () => {
      for (let y = 0; y < globalThis.document.body.scrollHeight; y += 600) {
        globalThis.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 60));
      }
      globalThis.scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    const file = `${out}/${p.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(`${width}px ${p} → ${res?.status()} ${page.url()} ${file}`);
  }
  await context.close();
}
await browser.close();
