import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { formatTwd } from '@shop/shared/money';
import { signInBrowser } from './support.ts';

/**
 * Pages arrive with their content (docs/decisions/024-server-rendering.md): read here with
 * JavaScript switched off, so only the server's HTML can show it; then the same pages with
 * scripts hydrate without errors and without moving.
 */

interface ListedProduct {
  slug: string;
  name: string;
  priceMin: number;
}

async function firstProduct(page: Page): Promise<ListedProduct> {
  const res = await page.context().request.get('/api/catalog/products?pageSize=1');
  expect(res.ok()).toBe(true);
  const { items } = (await res.json()) as { items: ListedProduct[] };
  const product = items[0];
  if (!product) throw new Error('the demo catalogue is empty');
  return product;
}

/** Console errors, failed scripts and layout shifts while a page loads and settles. */
function watch(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { errors };
}

async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 500);
      }),
  );
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test("the landing page's text is in the HTML", async ({ page }) => {
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('');
    // The shop's navigation and footer, and the landing's link into the shop.
    await expect(page.getByRole('navigation').first()).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
  });

  test("a signed-in member's product page carries the product's name and price", async ({
    page,
    context,
  }) => {
    await signInBrowser(context);
    const product = await firstProduct(page);
    const res = await page.goto(`/mall/${product.slug}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
    await expect(page.getByText(formatTwd(product.priceMin)).first()).toBeVisible();
    // The header as the member will see it once the app runs: their member link, no sign-in button.
    await expect(page.getByRole('banner').getByRole('link', { name: '會員中心' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: '登入' })).toHaveCount(0);
  });
});

/** The page has become the app: every part hydrated (apps/web/src/lib/hydration.tsx), clicks taken. */
async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('#root')).not.toHaveAttribute('data-hydrating');
}

// A mismatch between the server's HTML and the browser's first render, or any error while React
// hydrates, is reported on the console (boot.tsx's onRecoverableError) or thrown: either fails here.
test('server-rendered pages hydrate without errors and without layout shifts', async ({ page, context }) => {
  const { errors } = watch(page);
  for (const path of ['/', '/faq']) {
    await page.goto(path, { waitUntil: 'networkidle' });
    await hydrated(page);
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  }

  await signInBrowser(context);
  await page.goto('/mall', { waitUntil: 'networkidle' });
  await hydrated(page);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  const product = await firstProduct(page);
  await page.goto(`/mall/${product.slug}`, { waitUntil: 'networkidle' });
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  // Hydrated: the page answers clicks (the header's cart link leads to the cart).
  await page
    .getByRole('link', { name: /購物車/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/cart$/);
  expect(errors).toEqual([]);
});
