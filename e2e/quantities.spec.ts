import { expect, test } from './test.ts';
import type { Locator } from '@playwright/test';
import { addToCart, signInBrowser, stockOf } from './support.ts';

/**
 * The quantity box says what it adjusted and why, on the product page and in the cart
 * (docs/decisions/019-titles-quantities-phone-layout.md).
 */

/** Types into a quantity box and confirms it as a shopper does: Enter. */
async function typeQuantity(box: Locator, text: string) {
  await box.fill(text);
  await box.press('Enter');
}

test.describe('quantities say what was adjusted and why', () => {
  test.beforeEach(async ({ context }) => {
    await signInBrowser(context);
  });

  test('the product page: above the limit or the stock, 0 and a negative number', async ({ page }) => {
    await page.goto('/mall/dongding-oolong');
    await expect(page.getByRole('heading', { level: 1, name: '凍頂烏龍' })).toBeVisible();
    const box = page.getByLabel('數量', { exact: true });
    await expect(page.getByRole('radio', { name: '75 g' })).toHaveAttribute('aria-checked', 'true');

    // 75 g has more than 99 in stock: the per-item limit decides.
    await typeQuantity(box, '1000');
    await expect(box).toHaveValue('99');
    await expect(page.getByText('每項商品最多購買 99 件，已調整為 99')).toBeVisible();

    await typeQuantity(box, '-3');
    await expect(box).toHaveValue('99');
    await expect(page.getByRole('alert').filter({ hasText: '數量不能是負數' })).toBeVisible();

    await typeQuantity(box, '0');
    await expect(box).toHaveValue('1');
    await expect(page.getByText('數量至少 1 件，已調整為 1')).toBeVisible();

    // 150 g has fewer than 99: the stock decides, and says how many are left.
    const stock = await stockOf(page, 'dongding-oolong', 'SL-DD-150');
    await page.getByRole('radio', { name: '150 g' }).click();
    await typeQuantity(box, '1000');
    await expect(box).toHaveValue(String(stock));
    await expect(page.getByText(`庫存只剩 ${stock} 件，已調整為 ${stock}`)).toBeVisible();
  });

  test('the cart: above the stock, a negative number, and 0 asks before removing the line', async ({
    page,
  }) => {
    await addToCart(page, 'dongding-oolong', '150 g');
    const stock = await stockOf(page, 'dongding-oolong', 'SL-DD-150');
    await page.goto('/cart');
    const box = page.getByLabel('凍頂烏龍 數量');
    await expect(box).toHaveValue('1');

    await typeQuantity(box, '1000');
    await expect(box).toHaveValue(String(stock));
    await expect(page.getByText(`庫存只剩 ${stock} 件，已調整為 ${stock}`)).toBeVisible();
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/api/cart')).json()) as { lines: Array<{ quantity: number }> })
            .lines[0]?.quantity,
      )
      .toBe(stock);

    await typeQuantity(box, '-3');
    await expect(box).toHaveValue(String(stock));
    await expect(page.getByRole('alert').filter({ hasText: '數量不能是負數' })).toBeVisible();

    await typeQuantity(box, '0');
    const ask = page.getByRole('dialog', { name: '要從購物車移除這項商品嗎？' });
    await expect(ask).toContainText('凍頂烏龍');
    await ask.getByRole('button', { name: '保留' }).click();
    await expect(ask).toBeHidden();
    await expect(box).toHaveValue(String(stock));

    await typeQuantity(box, '0');
    await ask.getByRole('button', { name: '移除' }).click();
    await expect(page.getByText('購物車還是空的')).toBeVisible();
  });
});
