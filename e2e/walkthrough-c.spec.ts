import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { addToCart, orderStatus, signInBrowser, uniqueEmail } from './support.ts';

/** Issue 18, third group of the walkthrough at 390 px and 1280 px (docs/decisions/020-walkthrough-fixes-c.md). */

const PHONE = { width: 390, height: 844 };

const HOME = {
  method: 'home',
  recipientName: '陳茶香',
  phone: '0922333444',
  city: '南投縣',
  district: '鹿谷鄉',
  address: '中正路 12 號',
};

async function fillHomeAddress(page: Page) {
  await page.getByLabel('收件人姓名').fill('王小茶');
  await page.getByLabel('手機號碼').fill('0912345678');
  await page.getByLabel('縣市').selectOption('南投縣');
  await page.getByLabel('鄉鎮市區').selectOption('鹿谷鄉');
  await page.getByLabel('地址', { exact: true }).fill('興產路 87 號');
}

const orderNoFrom = (page: Page) => new URL(page.url()).searchParams.get('order')!;

/** One of a product's first variant into the cart through the API (the product page's phone layout is not under test here). */
async function addByApi(page: Page, slug: string) {
  const product = (await (await page.request.get(`/api/catalog/products/${slug}`)).json()) as {
    variants: Array<{ id: string }>;
  };
  expect(
    (
      await page.request.post('/api/cart/items', {
        data: { variantId: product.variants[0]!.id, quantity: 1 },
      })
    ).ok(),
  ).toBe(true);
}

test.describe('checkout starts from what the member used before', () => {
  test('the default saved address fills an empty checkout', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('prefill-default'));
    const { method: _method, ...home } = HOME;
    const saved = await context.request.post('/api/me/addresses', {
      data: { kind: 'home', label: '老家', ...home, isDefault: true },
    });
    expect(saved.ok()).toBe(true);
    await addToCart(page, 'sun-moon-lake-assam-t8');
    await page.goto('/payment');
    await expect(page.getByLabel('收件人姓名')).toHaveValue('陳茶香');
    await expect(page.getByLabel('手機號碼')).toHaveValue('0922333444');
    await expect(page.getByLabel('縣市')).toHaveValue('南投縣');
    await expect(page.getByLabel('鄉鎮市區')).toHaveValue('鹿谷鄉');
    await expect(page.getByLabel('地址', { exact: true })).toHaveValue('中正路 12 號');
    // Already in the address book: nothing to offer saving.
    await expect(page.getByLabel(/儲存這個地址/)).toHaveCount(0);
  });

  test('with no saved address, a checkout on another device starts from the last order’s recipient', async ({
    page,
    context,
    browser,
  }) => {
    const email = uniqueEmail('prefill-last');
    await signInBrowser(context, email);
    await addToCart(page, 'oolong-cold-brew-tea-bags');
    const placed = await page.request.post('/api/orders', {
      data: {
        idempotencyKey: `prefill-last-${Date.now()}`,
        shipping: HOME,
        invoice: { type: 'member' },
        paymentMethod: 'cod',
      },
    });
    expect(placed.status()).toBe(201);

    // Another browser: no draft of this checkout on it.
    const other = await browser.newContext();
    try {
      await signInBrowser(other, email);
      const phone = await other.newPage();
      await addToCart(phone, 'oolong-cold-brew-tea-bags');
      await phone.goto('/payment');
      await expect(phone.getByLabel('收件人姓名')).toHaveValue('陳茶香');
      await expect(phone.getByLabel('手機號碼')).toHaveValue('0922333444');
      await expect(phone.getByLabel('地址', { exact: true })).toHaveValue('中正路 12 號');
      await expect(phone.getByLabel('鄉鎮市區')).toHaveValue('鹿谷鄉');
    } finally {
      await other.close();
    }
  });

  test('「儲存這個地址」 saves the order’s address to the address book, as the default when it is the first', async ({
    page,
    context,
  }) => {
    await signInBrowser(context, uniqueEmail('save-address'));
    await addToCart(page, 'wood-fired-teapot');
    await page.goto('/payment');
    await fillHomeAddress(page);
    const save = page.getByRole('checkbox', { name: /儲存這個地址/ });
    await expect(save).not.toBeChecked();
    await save.check();
    await page.getByLabel(/貨到付款/).check();
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('訂單已成立');

    const book = (await (await page.request.get('/api/me/addresses')).json()) as {
      addresses: Array<Record<string, unknown>>;
    };
    expect(book.addresses).toHaveLength(1);
    expect(book.addresses[0]).toMatchObject({
      kind: 'home',
      recipientName: '王小茶',
      phone: '0912345678',
      city: '南投縣',
      district: '鹿谷鄉',
      address: '興產路 87 號',
      isDefault: true,
    });

    // The next checkout offers it among the saved addresses, and does not offer to save it again.
    await addToCart(page, 'wood-fired-teapot');
    await page.goto('/payment');
    await expect(page.getByRole('button', { name: /宅配地址（預設）/ })).toBeVisible();
    await expect(page.getByLabel('收件人姓名')).toHaveValue('王小茶');
    await expect(page.getByRole('checkbox', { name: /儲存這個地址/ })).toHaveCount(0);
  });
});

test.describe('an unpaid order that ends gives its lines back to the cart', () => {
  test('a failed card payment, then the member cancels: the lines go back, merged with what the cart holds, and the page says so', async ({
    page,
    context,
  }) => {
    await signInBrowser(context, uniqueEmail('cart-back'));
    await addToCart(page, 'sun-moon-lake-assam-t8');
    await page.goto('/payment');
    await fillHomeAddress(page);
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await page.getByRole('button', { name: '模擬付款失敗' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款未成功');
    const orderNo = orderNoFrom(page);
    // The order took the cart's lines.
    await expect(page.getByRole('link', { name: '購物車', exact: true })).toBeVisible();

    // Meanwhile the member puts one more of the same tea in the cart.
    await addToCart(page, 'sun-moon-lake-assam-t8');
    await page.goto(`/member/orderList/${orderNo}`);
    // A pending card order says until when it can be paid.
    await expect(
      page.getByText(/^請於 (\d{4}\/\d{2}\/\d{2} )?\d{2}:\d{2} 前完成付款，逾時訂單會自動取消。$/),
    ).toBeVisible();
    await page.getByRole('button', { name: '取消訂單' }).click();
    const ask = page.getByRole('dialog', { name: '取消這筆訂單？' });
    await expect(ask).toContainText('商品會放回您的購物車');
    await ask.getByRole('button', { name: '確定取消' }).click();
    await expect(page.getByText('訂單已取消。商品已放回購物車。')).toBeVisible();
    expect(await orderStatus(page, orderNo)).toBe('cancelled');
    await expect(page.getByRole('list', { name: '訂單進度' })).toContainText(
      '會員取消訂單；商品已放回購物車。',
    );

    // Merged with the one already there: two of the tea, in one line.
    await expect(page.getByRole('link', { name: '購物車，共 2 件商品' })).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByRole('heading', { level: 1, name: '購物車' })).toBeVisible();
    const cart = (await (await page.request.get('/api/cart')).json()) as {
      lines: Array<{ slug: string; quantity: number }>;
    };
    expect(cart.lines.map((l) => [l.slug, l.quantity])).toEqual([['sun-moon-lake-assam-t8', 2]]);
  });
});

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

test.describe('the checkout on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('the total is at the top, and opens the order summary in place', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('phone-summary'));
    await addByApi(page, 'sun-moon-lake-assam-t8');
    await page.goto('/payment');
    const summary = page.getByTestId('mobile-summary');
    await expect(summary).toBeInViewport();
    await expect(page.getByTestId('mobile-summary-total')).toHaveText(/^NT\$[\d,]+$/);
    await expect(page.getByTestId('mobile-summary-total')).toHaveText(
      (await page.getByTestId('order-total').innerText()).trim(),
    );
    await summary.getByText('顯示訂單摘要').click();
    await expect(summary.getByText('商品小計')).toBeVisible();
    await expect(summary.getByText(/日月潭阿薩姆紅茶/)).toBeVisible();
  });
});
