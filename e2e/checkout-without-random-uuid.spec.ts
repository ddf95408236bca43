import { expect, test } from './test.ts';
import { addToCart, signInBrowser, uniqueEmail, fillHomeAddress } from './support.ts';

/**
 * The checkout where crypto.randomUUID does not exist: http on a LAN address, old Safari
 * (docs/decisions/020-checkout-start-cart-return-atm.md).
 */

test.describe('checkout where crypto.randomUUID does not exist', () => {
  test('plain http on a LAN address, Safari before 15.4: the checkout opens and the order is placed', async ({
    page,
    context,
  }) => {
    await context.addInitScript(() => {
      // As on an http:// LAN address (no secure context) or an older Safari.
      delete (Crypto.prototype as { randomUUID?: unknown }).randomUUID;
    });
    await signInBrowser(context, uniqueEmail('no-uuid'));
    await addToCart(page, 'oolong-cold-brew-tea-bags');
    expect(await page.evaluate(() => typeof (crypto as { randomUUID?: unknown }).randomUUID)).toBe(
      'undefined',
    );
    await page.goto('/payment');
    await expect(page.getByRole('heading', { level: 1, name: '結帳' })).toBeVisible();
    await expect(page.getByText('Internal Server Error')).toHaveCount(0);
    await fillHomeAddress(page);
    await page.getByLabel(/貨到付款/).check();
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('訂單已成立');
  });
});
