import { expect, test } from './test.ts';
import { signInBrowser, PHONE } from './support.ts';

/**
 * The product page at 390 px: the buy bar, the variant in the address
 * (docs/decisions/019-titles-quantities-phone-layout.md).
 */

test.describe('the product page on a phone', () => {
  test.use({ viewport: PHONE });
  test.beforeEach(async ({ context }) => {
    await signInBrowser(context);
  });

  test('the price and 加入購物車 are in the first screen; the bar comes and goes without moving the page', async ({
    page,
  }) => {
    await page.goto('/mall/lishan-high-mountain-oolong');
    await expect(page.getByRole('heading', { level: 1, name: '梨山高山茶' })).toBeVisible();
    // From here on, whatever the bar does must not move the page.
    await page.evaluate(() => {
      (window as unknown as { shift: number }).shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
          (window as unknown as { shift: number }).shift += entry.value;
      }).observe({ type: 'layout-shift' });
    });
    const bar = page.getByRole('region', { name: '購買' });
    await expect(bar).toBeInViewport();
    await expect(bar).toContainText('NT$780');
    await bar.getByRole('button', { name: '加入購物車' }).click();
    await expect(page.getByText(/已加入購物車/)).toBeVisible();
    // The toast sits above the bar, not on it.
    const toast = (await page.getByText(/已加入購物車/).boundingBox())!;
    expect(toast.y + toast.height).toBeLessThanOrEqual((await bar.boundingBox())!.y);
    // The page's own buy box in sight: the bar steps aside (and cannot be reached by Tab).
    const own = page.getByRole('button', { name: '加入購物車' }).first();
    await own.scrollIntoViewIfNeeded();
    await expect(bar).not.toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar).toBeInViewport();
    // The end of the page is not hidden under the bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footerEnd = await page.getByRole('contentinfo').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(footerEnd).toBeLessThanOrEqual((await bar.boundingBox())!.y + 1);
    expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBeLessThan(0.01);
  });

  test('the chosen variant is in the address, restored on load, and a sold-out product offers no quantity', async ({
    page,
  }) => {
    await page.goto('/mall/lishan-high-mountain-oolong');
    await page.getByRole('radio', { name: '150 g' }).click();
    await expect(page).toHaveURL('/mall/lishan-high-mountain-oolong?variant=SL-LS-150');
    await page.reload();
    await expect(page.getByRole('radio', { name: '150 g' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByText('商品編號 SL-LS-150')).toBeVisible();
    await page.goto('/mall/lishan-high-mountain-oolong?variant=sl-ls-075');
    await expect(page.getByRole('radio', { name: '75 g' })).toHaveAttribute('aria-checked', 'true');

    await page.goto('/mall/lishan-winter-2019');
    await expect(page).toHaveURL('/mall/shanlinxi-high-mountain-oolong');
    await page.goto('/mall/cuifeng-high-mountain-oolong');
    await expect(page.getByRole('button', { name: '貨到通知我' }).first()).toBeVisible();
    await expect(page.getByText('最多可選')).toHaveCount(0);
    await expect(page.getByLabel('數量', { exact: true })).toHaveCount(0);
  });
});
