import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { signInBrowser, uniqueEmail, PHONE } from './support.ts';

/**
 * The checkout at 390 px: the total at the top, opening the order summary in place
 * (docs/decisions/020-checkout-start-cart-return-atm.md).
 */

/** One of a product's first variant into the cart through the API (the product page's phone layout is not under test here). */
async function addByApi(page: Page, slug: string) {
  const product = (await (await page.request.get(`/api/catalog/products/${slug}`)).json()) as {
    variants: Array<{ id: string }>;
  };
  expect(
    (
      await page.request.post('/api/cart/items', {
        data: { variantId: product.variants[0]!.id, quantity: 1 },
      })
    ).ok(),
  ).toBe(true);
}

test.describe('the checkout on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('the total is at the top, and opens the order summary in place', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('phone-summary'));
    await addByApi(page, 'sun-moon-lake-assam-t8');
    await page.goto('/payment');
    const summary = page.getByTestId('mobile-summary');
    await expect(summary).toBeInViewport();
    await expect(page.getByTestId('mobile-summary-total')).toHaveText(/^NT\$[\d,]+$/);
    await expect(page.getByTestId('mobile-summary-total')).toHaveText(
      (await page.getByTestId('order-total').innerText()).trim(),
    );
    await summary.getByText('顯示訂單摘要').click();
    await expect(summary.getByText('商品小計')).toBeVisible();
    await expect(summary.getByText(/日月潭阿薩姆紅茶/)).toBeVisible();
  });
});
