import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { signInBrowser, PHONE } from './support.ts';

/**
 * Pages at 390 px and 1280 px: nothing scrolls sideways, lines break where they should
 * (docs/decisions/019-titles-quantities-phone-layout.md).
 */

async function overflowsX(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

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
