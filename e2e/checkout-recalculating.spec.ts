import { expect, test } from './test.ts';
import type { Page, Route } from '@playwright/test';
import { addToCart, signInBrowser } from './support.ts';

async function fillHomeAddress(page: Page) {
  await page.getByLabel('收件人姓名').fill('王小茶');
  await page.getByLabel('手機號碼').fill('0912345678');
  await page.getByLabel('縣市').selectOption('南投縣');
  await page.getByLabel('鄉鎮市區').selectOption('鹿谷鄉');
  await page.getByLabel('地址', { exact: true }).fill('興產路 87 號');
}

test('while a new quote is on its way the checkout says it is recalculating and holds 送出訂單', async ({
  page,
  context,
}) => {
  await signInBrowser(context);
  await addToCart(page, 'alishan-jinxuan-oolong');
  await page.goto('/payment');
  await fillHomeAddress(page);
  const total = page.getByTestId('order-total');
  await expect(total).toHaveText(/^NT\$/);
  const before = await total.textContent();

  // A slow network: the quote for the new choice waits until the test lets it through.
  const held: Route[] = [];
  await page.route('**/api/checkout/quote', (route) => void held.push(route));
  await page.getByRole('radio', { name: /貨到付款/ }).check();
  await expect.poll(() => held.length).toBeGreaterThan(0);

  const submit = page.getByRole('button', { name: /金額計算中/ });
  await expect(submit).toBeDisabled();
  await expect(page.getByTestId('quote-recalculating')).toHaveText('重新計算金額中…');
  await expect(total).toHaveAttribute('aria-busy', 'true');

  await page.unroute('**/api/checkout/quote');
  // (A request the page gave up on meanwhile is already over.)
  for (const route of held.splice(0)) await route.continue().catch(() => undefined);
  await expect(page.getByRole('button', { name: '送出訂單', exact: true })).toBeEnabled();
  await expect(page.getByTestId('quote-recalculating')).toHaveCount(0);
  // Cash on delivery adds its fee: the total shown is the new one.
  await expect(total).not.toHaveText(before!);
});
