import { expect, test } from './test.ts';
import { addToCart, signInBrowser, uniqueEmail, fillHomeAddress } from './support.ts';

/**
 * A checkout starts from what the member used before: the saved address, the last order, 「儲存這個地址」
 * (docs/decisions/020-checkout-start-cart-return-atm.md).
 */

const HOME = {
  method: 'home',
  recipientName: '陳茶香',
  phone: '0922333444',
  city: '南投縣',
  district: '鹿谷鄉',
  address: '中正路 12 號',
};

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
