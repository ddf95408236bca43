import { expect, test } from './test.ts';
import type { Locator, Page } from '@playwright/test';
import { addToCart, signInBrowser, stockOf } from './support.ts';

/** Issue 18, second group of the walkthrough at 390 px and 1280 px (docs/decisions/019-walkthrough-fixes-b.md). */

const PHONE = { width: 390, height: 844 };

/** Types into a quantity box and confirms it as a shopper does: Enter. */
async function typeQuantity(box: Locator, text: string) {
  await box.fill(text);
  await box.press('Enter');
}

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

test.describe('the product page on a phone', () => {
  test.use({ viewport: PHONE });
  test.beforeEach(async ({ context }) => {
    await signInBrowser(context);
  });

  test('the price and 加入購物車 are in the first screen; the bar comes and goes without moving the page', async ({
    page,
  }) => {
    await page.goto('/mall/lishan-high-mountain-oolong');
    await expect(page.getByRole('heading', { level: 1, name: '梨山高山茶' })).toBeVisible();
    // From here on, whatever the bar does must not move the page.
    await page.evaluate(() => {
      (window as unknown as { shift: number }).shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
          (window as unknown as { shift: number }).shift += entry.value;
      }).observe({ type: 'layout-shift' });
    });
    const bar = page.getByRole('region', { name: '購買' });
    await expect(bar).toBeInViewport();
    await expect(bar).toContainText('NT$780');
    await bar.getByRole('button', { name: '加入購物車' }).click();
    await expect(page.getByText(/已加入購物車/)).toBeVisible();
    // The toast sits above the bar, not on it.
    const toast = (await page.getByText(/已加入購物車/).boundingBox())!;
    expect(toast.y + toast.height).toBeLessThanOrEqual((await bar.boundingBox())!.y);
    // The page's own buy box in sight: the bar steps aside (and cannot be reached by Tab).
    const own = page.getByRole('button', { name: '加入購物車' }).first();
    await own.scrollIntoViewIfNeeded();
    await expect(bar).not.toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar).toBeInViewport();
    // The end of the page is not hidden under the bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footerEnd = await page.getByRole('contentinfo').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(footerEnd).toBeLessThanOrEqual((await bar.boundingBox())!.y + 1);
    expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBeLessThan(0.01);
  });

  test('the chosen variant is in the address, restored on load, and a sold-out product offers no quantity', async ({
    page,
  }) => {
    await page.goto('/mall/lishan-high-mountain-oolong');
    await page.getByRole('radio', { name: '150 g' }).click();
    await expect(page).toHaveURL('/mall/lishan-high-mountain-oolong?variant=SL-LS-150');
    await page.reload();
    await expect(page.getByRole('radio', { name: '150 g' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByText('商品編號 SL-LS-150')).toBeVisible();
    await page.goto('/mall/lishan-high-mountain-oolong?variant=sl-ls-075');
    await expect(page.getByRole('radio', { name: '75 g' })).toHaveAttribute('aria-checked', 'true');

    await page.goto('/mall/lishan-winter-2019');
    await expect(page).toHaveURL('/mall/shanlinxi-high-mountain-oolong');
    await page.goto('/mall/cuifeng-high-mountain-oolong');
    await expect(page.getByRole('button', { name: '已售完' }).first()).toBeVisible();
    await expect(page.getByText('最多可選')).toHaveCount(0);
    await expect(page.getByLabel('數量', { exact: true })).toHaveCount(0);
  });
});

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

async function overflowsX(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

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

test.describe('content pages', () => {
  test('/shippingFee on a phone shows one card per method, nothing scrolls sideways, 7-ELEVEN stays whole', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/shippingFee');
    const cards = page.getByRole('list', { name: '各配送方式的運費與免運門檻' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole('table')).toBeHidden();
    expect(await overflowsX(page)).toBe(false);
    const chain = cards.nth(1).getByText('7-ELEVEN', { exact: true });
    const box = await chain.boundingBox();
    expect(box!.height).toBeLessThan(30);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByRole('table')).toBeVisible();
  });

  test('/media: an article card is as tall as its own content, not its neighbour video', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/media');
    const article = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: /閱讀全文/ }) })
      .first();
    await expect(article).toBeVisible();
    const box = await article.boundingBox();
    const inner = await article.evaluate((el) =>
      [...el.children].reduce((h, c) => h + c.getBoundingClientRect().height, 0),
    );
    expect(box!.height).toBeLessThan(inner + 120);
  });

  test('/ on a desktop: the join banner is as wide as the grid above it, and the footer follows without a gap', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const banner = page
      .getByRole('heading', { name: '加入山嵐會員' })
      .locator('xpath=ancestor::*[contains(@class, "bg-tea")][1]');
    const grid = page.getByRole('region', { name: '當季推薦' }).getByRole('list').first();
    await expect(banner).toBeVisible();
    const b = (await banner.boundingBox())!;
    const g = (await grid.boundingBox())!;
    expect(Math.abs(b.x - g.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(b.width - g.width)).toBeLessThanOrEqual(1);
    // Measured once the page has settled: sections still loading sit between them for a moment.
    await page.waitForLoadState('networkidle');
    await expect
      .poll(async () => {
        const banner_ = (await banner.boundingBox())!;
        const footer = (await page.locator('footer').boundingBox())!;
        return footer.y - (banner_.y + banner_.height);
      })
      .toBeLessThanOrEqual(112);
  });

  test('/home headings leave no single character alone on a line, on a phone or a desktop', async ({
    page,
  }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const viewport of [PHONE, { width: 1280, height: 900 }]) {
      await page.setViewportSize(viewport);
      const orphans = await page.evaluate(() =>
        [...document.querySelectorAll('main h1, main h2, main h3')].flatMap((h) => {
          const text = h.textContent ?? '';
          const range = document.createRange();
          const tops: number[] = [];
          for (const node of [...h.querySelectorAll('*'), h].flatMap((e) =>
            [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE),
          )) {
            for (let i = 0; i < (node.textContent ?? '').length; i++) {
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const r = range.getClientRects()[0];
              if (r && r.width > 0) tops.push(Math.round(r.top));
            }
          }
          const lastTop = Math.max(...tops);
          const onLast = tops.filter((t) => t === lastTop).length;
          return new Set(tops).size > 1 && onLast === 1 ? [text] : [];
        }),
      );
      expect(orphans, `${viewport.width} px`).toEqual([]);
    }
  });
});

test.describe('the member area on a phone', () => {
  test.use({ viewport: PHONE });

  test('every tab is on screen, and a long address wraps at its @ and dots', async ({ page, context }) => {
    const local = `walkthrough.long.address.${Date.now()}`;
    await signInBrowser(context, `${local}@example-tea-house.com.tw`);
    await page.goto('/member/membershipAndDiscounts');
    const nav = page.getByRole('navigation', { name: '會員中心選單' });
    for (const name of ['會員首頁', '訂單查詢', '配送追蹤', '會員等級與優惠', '修改密碼'])
      await expect(nav.getByRole('link', { name })).toBeInViewport({ ratio: 1 });
    await expect(nav.getByRole('button', { name: '登出' })).toBeInViewport({ ratio: 1 });
    expect(await overflowsX(page)).toBe(false);
    await page.goto('/member');
    const email = page.getByText(`${local}@example-tea-house.com.tw`).filter({ visible: true }).first();
    await expect(email).toBeVisible();
    const words = await email.evaluate((el) => {
      const lines = new Map<number, string>();
      const range = document.createRange();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < (node.textContent ?? '').length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          lines.set(top, (lines.get(top) ?? '') + node.textContent![i]);
        }
      }
      return [...lines.values()];
    });
    // Each line ends at a boundary: before an @ or a dot, or after a hyphen; never inside a word.
    expect(words.length).toBeGreaterThan(1);
    const joined = words.join('');
    let at = 0;
    for (const line of words.slice(0, -1)) {
      at += line.length;
      expect(
        joined[at] === '@' || joined[at] === '.' || joined[at - 1] === '-',
        `${joined.slice(0, at)}|${joined.slice(at)}`,
      ).toBe(true);
    }
  });
});
