import { expect, test } from './test.ts';
import { ROUTES } from '../packages/shared/src/routes.ts';
import { signInBrowser } from './support.ts';

const concrete = (pattern: string) => pattern.replace(/:[a-zA-Z]+/g, 'demo-1');
const protectedPaths = ROUTES.filter((r) => r.access === 'member').map((r) => concrete(r.path));

test.describe('guards in a real browser', () => {
  test('anonymous visits to every protected route land on /login', async ({ page }) => {
    for (const path of protectedPaths) {
      await page.goto(path);
      await expect(page, path).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`);
      await expect(page.getByRole('heading', { level: 1, name: '會員登入' })).toBeVisible();
    }
  });

  test('an unknown path shows the 404 page and the server answers 404', async ({ page }) => {
    const response = await page.goto('/that/path');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('Page not found: /that/path')).toBeVisible();
    await expect(page.getByTestId('error-status')).toHaveText('404');
    await expect(page.getByRole('heading', { name: '找不到這個頁面' })).toBeVisible();
    await expect(page.getByTestId('error-status-message')).toHaveText('Page Not Found');
    await expect(page).toHaveURL('/that/path');
  });

  test('an unknown path is a 404 for signed-in members too, not a sign-in form', async ({
    page,
    context,
  }) => {
    await signInBrowser(context);
    const response = await page.goto('/member/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('Page not found: /member/no-such-page')).toBeVisible();
  });

  test('a signed-in browser visiting /login lands on /', async ({ page, context }) => {
    await signInBrowser(context);
    await page.goto('/login');
    await expect(page).toHaveURL('/');
    for (const path of ['/forgetPassword', '/forgetPasswordConfirm', '/resetPassword']) {
      await page.goto(path);
      await expect(page, path).toHaveURL('/');
    }
  });

  test('a signed-in member reaches member pages, but not the password change without re-auth', async ({
    page,
    context,
  }) => {
    await signInBrowser(context);
    await page.goto('/cart');
    await expect(page).toHaveURL('/cart');
    await expect(page.getByRole('heading', { level: 1, name: '購物車' })).toBeVisible();
    await page.goto('/member/resetPassword');
    await expect(page).toHaveURL('/member');
  });

  test('an old product link follows the redirect table to its target', async ({ page, context }) => {
    await signInBrowser(context);
    await page.goto('/mall/2019-winter-oolong');
    await expect(page).toHaveURL('/mall');
  });

  test('the landing scrolls to the top when opened again', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, 800));
    await page.getByRole('contentinfo').getByRole('link', { name: '運費說明' }).click();
    await expect(page).toHaveURL('/shippingFee');
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^山嵐茶事.*首頁$/ })
      .click();
    await expect(page).toHaveURL('/');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
