import { expect, test } from './test.ts';
import { countDocumentLoads } from './support.ts';

test.describe('update and reload behaviours', () => {
  test('a blocked page chunk reloads once, and not twice within 10 s', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The text pages (transport, shipping, terms, privacy) share one chunk: make it unreachable.
    await page.route(/\/assets\/text-page-[^/]+\.js$/, (route) => route.abort('failed'));
    const loads = countDocumentLoads(page);
    await page.getByRole('contentinfo').getByRole('link', { name: '運送方式' }).click();
    await expect(page.getByTestId('error-status')).toHaveText('500');
    await expect(page.getByTestId('error-status-message')).toHaveText('Internal Server Error');
    await expect(page.getByRole('button', { name: '重新載入' })).toBeVisible();
    await page.waitForTimeout(1500);
    expect(loads.count).toBe(1);
    expect(loads.urls[0]).toMatch(/\/transport$/);
  });

  test('a new build id reloads the page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const requested: string[] = [];
    await page.route(/\/build-manifest\.json\?t=\d+$/, (route) => {
      requested.push(route.request().url());
      return route.fulfill({ json: { buildId: 'a-newer-build', builtAt: new Date().toISOString() } });
    });
    const loads = countDocumentLoads(page);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => loads.count).toBe(1);
    expect(requested.length).toBeGreaterThanOrEqual(1);
  });

  test('a new build waits while a form holds unsaved input, then loads at the next route change', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.route(/\/build-manifest\.json\?t=\d+$/, (route) =>
      route.fulfill({ json: { buildId: 'a-newer-build', builtAt: new Date().toISOString() } }),
    );
    // A form the shopper has typed into.
    await page.evaluate(() => {
      const form = document.createElement('form');
      form.innerHTML = '<label>備註<input name="note"></label>';
      document.querySelector('main')!.prepend(form);
    });
    await page.getByLabel('備註').fill('請幫我包裝成禮盒');
    const loads = countDocumentLoads(page);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForTimeout(1000);
    expect(loads.count).toBe(0);
    await expect(page.getByLabel('備註')).toHaveValue('請幫我包裝成禮盒');

    await page.getByRole('contentinfo').getByRole('link', { name: '常見問題' }).click();
    await expect.poll(() => loads.count).toBe(1);
    expect(loads.urls[0]).toMatch(/\/faq$/);
    await expect(page).toHaveURL('/faq');
  });
});

test('a page opened by address starts at its top, not where another page was scrolled to', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1, name: '常見問題' })).toBeVisible();
  await page.mouse.wheel(0, 1500);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  // Every first load in a tab has the same history key; another page's position must not carry over.
  await page.goto('/shippingFee');
  await expect(page.getByRole('heading', { level: 1, name: '運費說明' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});
