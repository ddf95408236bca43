import { expect, test } from './test.ts';
import { PHONE, signInBrowser } from './support.ts';

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

test.describe('the header on a phone', () => {
  test.use({ viewport: PHONE });

  test('Escape closes the menu and gives the focus back to its button', async ({ page }) => {
    await page.goto('/shipping');
    const toggle = page.getByRole('button', { name: '開啟選單' });
    await toggle.click();
    const menu = page.getByRole('navigation', { name: '行動版選單' });
    await expect(menu).toBeVisible();
    await menu.getByRole('link').first().focus();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: '開啟選單' })).toBeFocused();
  });
});
