import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { addToCart, orderStatus, signInBrowser, uniqueEmail, fillHomeAddress } from './support.ts';

/**
 * An unpaid order that ends gives its lines back to the cart
 * (docs/decisions/020-checkout-start-cart-return-atm.md).
 */

const orderNoFrom = (page: Page) => new URL(page.url()).searchParams.get('order')!;

test.describe('an unpaid order that ends gives its lines back to the cart', () => {
  test('a failed card payment, then the member cancels: the lines go back, merged with what the cart holds, and the page says so', async ({
    page,
    context,
  }) => {
    await signInBrowser(context, uniqueEmail('cart-back'));
    await addToCart(page, 'sun-moon-lake-assam-t8');
    await page.goto('/payment');
    await fillHomeAddress(page);
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await page.getByRole('button', { name: '模擬付款失敗' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款未成功');
    const orderNo = orderNoFrom(page);
    // The order took the cart's lines.
    await expect(page.getByRole('link', { name: '購物車', exact: true })).toBeVisible();

    // Meanwhile the member puts one more of the same tea in the cart.
    await addToCart(page, 'sun-moon-lake-assam-t8');
    await page.goto(`/member/orderList/${orderNo}`);
    // A pending card order says until when it can be paid.
    await expect(
      page.getByText(/^請於 (\d{4}\/\d{2}\/\d{2} )?\d{2}:\d{2} 前完成付款，逾時訂單會自動取消。$/),
    ).toBeVisible();
    await page.getByRole('button', { name: '取消訂單' }).click();
    const ask = page.getByRole('dialog', { name: '取消這筆訂單？' });
    await expect(ask).toContainText('商品會放回您的購物車');
    await ask.getByRole('button', { name: '確定取消' }).click();
    await expect(page.getByText('訂單已取消。商品已放回購物車。')).toBeVisible();
    expect(await orderStatus(page, orderNo)).toBe('cancelled');
    await expect(page.getByRole('list', { name: '訂單進度' })).toContainText(
      '會員取消訂單；商品已放回購物車。',
    );

    // Merged with the one already there: two of the tea, in one line.
    await expect(page.getByRole('link', { name: '購物車，共 2 件商品' })).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByRole('heading', { level: 1, name: '購物車' })).toBeVisible();
    const cart = (await (await page.request.get('/api/cart')).json()) as {
      lines: Array<{ slug: string; quantity: number }>;
    };
    expect(cart.lines.map((l) => [l.slug, l.quantity])).toEqual([['sun-moon-lake-assam-t8', 2]]);
  });
});
