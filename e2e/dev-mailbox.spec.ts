import { expect, test } from './test.ts';

// Walkthrough n12: /dev/mailbox came to a browser blank, its compressed answer cut short.
test('the dev mailbox opens in a browser, compressed and whole', async ({ page }) => {
  const res = await page.goto('/dev/mailbox');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-encoding']).toMatch(/^(br|gzip|deflate)$/);
  await expect(page.getByRole('heading', { level: 1, name: '開發用信箱' })).toBeVisible();
  await expect(page.getByText('正式環境不會有這個頁面')).toBeVisible();
  await expect(page).toHaveTitle(/開發用信箱/);
});
