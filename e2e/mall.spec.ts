import { expect, test } from './test.ts';
import { signInBrowser } from './support.ts';

test.describe('the mall', () => {
  test.beforeEach(async ({ context }) => {
    await signInBrowser(context);
  });

  test('filters the grid, opens a product, switches variants, and Back restores the view', async ({
    page,
  }) => {
    await page.goto('/mall');
    await expect(page.getByRole('heading', { level: 1, name: '全部商品' })).toBeVisible();
    const results = page.getByRole('heading', { name: /共 \d+ 件商品/ });
    await expect(results).toBeVisible();

    await page
      .getByRole('navigation', { name: '商品分類' })
      .getByRole('link', { name: /^高山烏龍/ })
      .click();
    await expect(page).toHaveURL(/category=high-mountain-oolong/);
    await expect(page.getByRole('heading', { level: 1, name: '高山烏龍' })).toBeVisible();
    await page.getByLabel('排序').selectOption('price-asc');
    await expect(page).toHaveURL(/sort=price-asc/);
    // The box follows the URL, which changes in a router transition: on a busy machine it turns
    // checked a moment after the click, so wait for it rather than demand it at once (check()).
    const inStock = page.getByLabel('只看有現貨的商品');
    await inStock.click();
    await expect(page).toHaveURL(/inStock=1/);
    await expect(inStock).toBeChecked();

    // Prices in the grid are in ascending order, once the grid shows the new query's answer (while
    // it loads, the previous results stay on screen: on a busy machine the read came before it).
    const gridPrices = async () =>
      (await page.locator('article p.tabular > span:first-child').allInnerTexts()).map((t) =>
        Number(
          t
            .replace(/特價|\s/g, '')
            .split('–')[0]!
            .replace(/[^\d]/g, ''),
        ),
      );
    await expect
      .poll(async () => {
        const n = await gridPrices();
        return n.length > 1 && n.every((v, i) => i === 0 || n[i - 1]! <= v);
      })
      .toBe(true);
    const numbers = await gridPrices();
    expect(numbers.length).toBeGreaterThan(1);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

    await page.getByRole('link', { name: '梨山高山茶' }).click();
    await expect(page).toHaveURL('/mall/lishan-high-mountain-oolong');
    await expect(page.getByRole('heading', { level: 1, name: '梨山高山茶' })).toBeVisible();
    const price = page.locator('main p.tabular').first();
    await expect(price).toContainText('NT$780');
    await expect(price).toContainText('NT$880');
    await page.getByRole('radio', { name: '150 g' }).click();
    await expect(page.getByRole('radio', { name: '150 g' })).toHaveAttribute('aria-checked', 'true');
    await expect(price).not.toContainText('NT$780');
    await expect(page.getByText('商品編號 SL-LS-150')).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(
      /category=high-mountain-oolong.*sort=price-asc|sort=price-asc.*category=high-mountain-oolong/,
    );
    await expect(page.getByLabel('排序')).toHaveValue('price-asc');
  });

  test('a variant running low says how many are left, and the quantity cannot exceed it', async ({
    page,
  }) => {
    await page.goto('/mall/dayuling-high-mountain-oolong');
    await page.getByRole('radio', { name: '150 g' }).click();
    await expect(page.getByText(/僅剩 3 件/)).toBeVisible();
    await page.getByRole('button', { name: '增加數量' }).click();
    await page.getByRole('button', { name: '增加數量' }).click();
    await expect(page.getByLabel('數量', { exact: true })).toHaveValue('3');
    await expect(page.getByRole('button', { name: '增加數量' })).toBeDisabled();
    await page.getByLabel('數量', { exact: true }).fill('99');
    await page.getByLabel('數量', { exact: true }).press('Enter');
    await expect(page.getByLabel('數量', { exact: true })).toHaveValue('3');
    await expect(page.getByText('庫存只剩 3 件，已調整為 3')).toBeVisible();
  });

  test('a search for a Chinese word finds products, and an empty result offers a way out', async ({
    page,
  }) => {
    await page.goto('/mall');
    await page.getByLabel('搜尋商品').last().fill('冷泡');
    await page.getByRole('button', { name: '搜尋', exact: true }).last().click();
    await expect(page).toHaveURL(/q=%E5%86%B7%E6%B3%A1/);
    await expect(page.getByRole('link', { name: '山嵐專利冷泡瓶' })).toBeVisible();
    await page.goto('/mall?q=%E5%92%96%E5%95%A1');
    await expect(page.getByText('找不到符合條件的商品')).toBeVisible();
    await page.getByRole('button', { name: '清除所有條件' }).click();
    await expect(page).toHaveURL('/mall');
    await expect(page.getByRole('heading', { name: /共 \d+ 件商品/ })).toBeVisible();
  });

  test('an old product address follows the redirect to the renamed product', async ({ page }) => {
    // The server answers the old address with a redirect of its own (the page is rendered there).
    const res = await page.goto('/mall/dongding-oolong-classic');
    expect(res?.request().redirectedFrom()?.url()).toMatch(/\/mall\/dongding-oolong-classic$/);
    await expect(page).toHaveURL('/mall/dongding-oolong');
    await expect(page.getByRole('heading', { level: 1, name: '凍頂烏龍' })).toBeVisible();
    await page.goto('/mall/lishan-winter-2019');
    await expect(page).toHaveURL('/mall/shanlinxi-high-mountain-oolong');
  });

  test('the gallery changes pictures with the keyboard', async ({ page }) => {
    await page.goto('/mall/shanlan-cold-brew-bottle');
    const stage = page.getByLabel(/第 1 張，共 \d 張/);
    await stage.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByLabel(/第 2 張，共 \d 張/)).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByLabel(/第 1 張，共 \d 張/)).toBeVisible();
  });
});
