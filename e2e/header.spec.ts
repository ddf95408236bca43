import { expect, test } from './test.ts';
import { signInBrowser } from './support.ts';

test.describe('the header', () => {
  test('opening search puts the cursor in its box, so typing searches at once', async ({ page, context }) => {
    await signInBrowser(context);
    await page.goto('/faq');
    await page.getByRole('button', { name: /搜尋/ }).first().click();
    await expect(page.getByRole('searchbox', { name: '搜尋商品' })).toBeFocused();
    await page.keyboard.type('烏龍');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/mall\?q=%E7%83%8F%E9%BE%8D/);
  });

  test('its 登入 link brings the visitor back to the page they were on', async ({ page }) => {
    await page.goto('/faq');
    await expect(page.getByRole('link', { name: '登入', exact: true })).toHaveAttribute(
      'href',
      '/login?redirect=%2Ffaq',
    );
    await page.goto('/login?redirect=%2Fmember%2ForderList');
    // On the sign-in page itself, it keeps the way back the page already carries.
    await expect(page.getByRole('banner').getByRole('link', { name: '登入', exact: true })).toHaveAttribute(
      'href',
      '/login?redirect=%2Fmember%2ForderList',
    );
  });
});
