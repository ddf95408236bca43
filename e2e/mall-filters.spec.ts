import { expect, test } from './test.ts';
import { signInBrowser, PHONE } from './support.ts';

/**
 * The mall's categories and filters: a drawer with 套用 and 清除 on a phone, links on a desktop
 * (docs/decisions/019-titles-quantities-phone-layout.md).
 */

test.describe('the mall on a phone', () => {
  test.use({ viewport: PHONE });

  test('categories are links; the filters open in a drawer with 套用 and 清除', async ({ page, context }) => {
    await signInBrowser(context);
    await page.goto('/mall');
    await expect(page.getByRole('heading', { level: 1, name: '全部商品' })).toBeVisible();
    await page.getByRole('button', { name: /篩選條件/ }).click();
    const drawer = page.getByRole('dialog', { name: '篩選條件' });
    await expect(drawer).toBeVisible();
    await drawer.getByRole('radio', { name: /^高山烏龍/ }).check();
    await drawer.getByLabel('只看有現貨的商品').check();
    await expect(page).toHaveURL('/mall');
    await drawer.getByRole('button', { name: '套用' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/category=high-mountain-oolong/);
    await expect(page).toHaveURL(/inStock=1/);
    await expect(page.getByRole('heading', { level: 1, name: '高山烏龍' })).toBeVisible();

    await page.getByRole('button', { name: /篩選條件/ }).click();
    await drawer.getByRole('button', { name: '清除' }).click();
    await expect(drawer.getByRole('radio', { name: '全部商品' })).toBeChecked();
    await expect(drawer.getByLabel('只看有現貨的商品')).not.toBeChecked();
    await drawer.getByRole('button', { name: '套用' }).click();
    await expect(page).toHaveURL('/mall');
  });

  test('on a desktop the categories are links with their own address', async ({ page, context }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInBrowser(context);
    await page.goto('/mall?sort=price-asc');
    const link = page.getByRole('navigation', { name: '商品分類' }).getByRole('link', { name: /^高山烏龍/ });
    await expect(link).toHaveAttribute('href', '/mall?category=high-mountain-oolong&sort=price-asc');
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: '高山烏龍' })).toBeVisible();
    await expect(link).toHaveAttribute('aria-current', 'page');
  });
});
