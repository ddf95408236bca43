import { expect, test } from './test.ts';
import { signInBrowser } from './support.ts';

/**
 * A page's title: its route's, or what the page knows better; a missing product is a 404
 * (docs/decisions/019-titles-quantities-phone-layout.md).
 */

test.describe('page titles', () => {
  test('a missing product answers 404 with 「找不到頁面」 in the shell, a product its own name', async ({
    request,
  }) => {
    const missing = await request.get('/mall/does-not-exist');
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain('<title>找不到頁面｜山嵐茶事</title>');
    const unknown = await request.get('/no/such/page');
    expect(unknown.status()).toBe(404);
    expect(await unknown.text()).toContain('<title>找不到頁面｜山嵐茶事</title>');
    const found = await request.get('/mall/lishan-high-mountain-oolong');
    expect(found.status()).toBe(200);
    expect(await found.text()).toContain('<title>梨山高山茶｜山嵐茶事</title>');
    // An old address the owner redirected is still a page: the app follows the redirect.
    expect((await request.get('/mall/dongding-oolong-classic')).status()).toBe(200);
  });

  test('once the app runs, a product, a person and a missing page each keep their own title', async ({
    page,
    context,
  }) => {
    await signInBrowser(context);
    await page.goto('/mall/lishan-high-mountain-oolong');
    await expect(page.getByRole('heading', { level: 1, name: '梨山高山茶' })).toBeVisible();
    await expect(page).toHaveTitle('梨山高山茶｜山嵐茶事');
    // Inside the app: another product by a link names that product, the mall names the mall.
    const related = page.getByRole('region', { name: '您可能也會喜歡' }).getByRole('link').first();
    const name = (await related.innerText()).trim();
    await related.click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveTitle(`${name}｜山嵐茶事`);
    await page.getByRole('navigation', { name: '麵包屑' }).getByRole('link', { name: '商城' }).click();
    await expect(page).toHaveTitle('線上商城｜山嵐茶事');

    await page.goto('/master/chen-jia-he');
    await expect(page.getByRole('heading', { level: 1, name: '陳家和' })).toBeVisible();
    await expect(page).toHaveTitle('陳家和｜山嵐茶事');

    await page.goto('/mall/does-not-exist');
    await expect(page.getByText('找不到這項商品')).toBeVisible();
    await expect(page).toHaveTitle('找不到頁面｜山嵐茶事');
    await page.goto('/no/such/page');
    await expect(page.getByTestId('error-status')).toHaveText('404');
    await expect(page).toHaveTitle('找不到頁面｜山嵐茶事');
  });
});
