import type { BrowserContext } from '@playwright/test';
import { expect, test } from './test.ts';
import fs from 'node:fs';
import path from 'node:path';
import { parseMail, waitForMail } from './mailbox.ts';
import { PHONE, signInBrowser, uniqueEmail } from './support.ts';

/** The product link a restock mail carries. */
const productLinkIn = (text: string) => /https?:\/\/\S+\/mall\/[a-z0-9-]+/.exec(text)?.[0] ?? '';

/** Every mail to `to` whose subject contains `subject`, as delivered so far. */
function mailsTo(to: string, subject: string) {
  const dir = process.env.E2E_MAIL_DIR!;
  return fs
    .readdirSync(dir)
    .map((name) => parseMail(fs.readFileSync(path.join(dir, name), 'utf8'), name))
    .filter((m) => m.to === to && m.subject.includes(subject));
}

/** A product of its own for the test, sold out, through the console's API as the owner. */
async function soldOutProduct(owner: BrowserContext) {
  const stamp = Date.now().toString(36);
  const res = await owner.request.post('/api/admin/products', {
    data: {
      slug: `restock-${stamp}`,
      name: `貨到測試茶 ${stamp}`,
      summary: '等待到貨的茶。',
      categorySlug: 'high-mountain-oolong',
      status: 'active',
      variants: [
        {
          sku: `RS-${stamp}-S`,
          options: { 規格: '75 g' },
          price: 600,
          compareAtPrice: null,
          stock: 0,
          lowStockThreshold: 5,
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const detail = (await (await owner.request.get(`/api/admin/products/${id}`)).json()) as {
    slug: string;
    name: string;
    variants: Array<{ id: string }>;
  };
  return { id, slug: detail.slug, name: detail.name, variantId: detail.variants[0]!.id };
}

test.describe('wishlist and restock notices', () => {
  test('a visitor’s heart leads to sign-in and keeps the product; the list moves it to the cart', async ({
    page,
  }) => {
    await page.goto('/');
    const heart = page.getByRole('link', { name: /^收藏「.+」（請先登入）$/ }).first();
    await expect(heart).toBeVisible();
    const name = /^收藏「(.+)」/.exec((await heart.getAttribute('aria-label')) ?? '')![1]!;
    await heart.click();
    await expect(page).toHaveURL(/\/login\?redirect=/);

    // Signing in through the helper, then following the return path as the sign-in form does.
    await signInBrowser(page.context(), uniqueEmail('wish'));
    const back = new URL(page.url()).searchParams.get('redirect')!;
    await page.goto(back);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText(`已將「${name}」加入收藏`)).toBeVisible();
    await expect(page).not.toHaveURL(/wish=1/);
    await expect(page.getByRole('button', { name: `收藏「${name}」` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await page.goto('/member/wishlist');
    await expect(page.getByRole('heading', { level: 1, name: '收藏清單' })).toBeVisible();
    await expect(page.getByRole('link', { name })).toBeVisible();
    await page.getByRole('button', { name: '加入購物車' }).click();
    await expect(page.getByText(`已將「${name}」加入購物車`)).toBeVisible();
    await expect(page.getByText('還沒有收藏的茶品')).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByRole('link', { name }).first()).toBeVisible();
  });

  test('a member keeps and lets go from the mall on a phone', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInBrowser(page.context(), uniqueEmail('heart'));
    await page.goto('/mall');
    const first = page.getByRole('button', { name: /^收藏「.+」$/ }).first();
    await expect(first).toHaveAttribute('aria-pressed', 'false');
    await first.click();
    await expect(first).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(page.getByRole('button', { name: /^收藏「.+」$/ }).first()).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page
      .getByRole('button', { name: /^收藏「.+」$/ })
      .first()
      .click();
    await expect(page.getByText(/已將「.+」移出收藏/)).toBeVisible();
  });

  test('a member asks for a restock notice and gets one mail when the owner brings stock back', async ({
    page,
    browser,
  }) => {
    const ownerContext = await browser.newContext();
    await signInBrowser(ownerContext, uniqueEmail('owner'), 'owner');
    const product = await soldOutProduct(ownerContext);

    const email = uniqueEmail('restock');
    await signInBrowser(page.context(), email);
    await page.goto(`/mall/${product.slug}`);
    const ask = page.getByRole('button', { name: '貨到通知我' }).first();
    await ask.click();
    await expect(page.getByText('已登記貨到通知，到貨時會寄信給您')).toBeVisible();
    await expect(page.getByRole('button', { name: '已登記貨到通知' }).first()).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // The console shows who waits, and the owner's restock sends the mail.
    const owner = await ownerContext.newPage();
    await owner.goto(`/admin/products/${product.id}`);
    await expect(owner.getByTestId('restock-waiting')).toHaveText('1 人等待貨到通知');
    const before = Date.now();
    for (const delta of [5, -5, 3]) {
      const res = await ownerContext.request.post(`/api/admin/variants/${product.variantId}/stock`, {
        data: { delta, reason: delta > 0 ? '到貨' : '盤點' },
      });
      expect(res.status()).toBe(200);
    }
    const mail = await waitForMail(email, `${product.name} 已經到貨`, { after: before - 1000 });
    const link = productLinkIn(mail.text);
    expect(link).toMatch(new RegExp(`/mall/${product.slug}$`));
    // Stock that came, went and came again still made one mail.
    await page.waitForTimeout(1500);
    expect(mailsTo(email, '已經到貨')).toHaveLength(1);

    await page.goto(new URL(link).pathname);
    await expect(page.getByRole('button', { name: '加入購物車' }).first()).toBeEnabled();
    await ownerContext.close();
  });
});
