import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.ts';
import { addToCart, orderStatus, pickStoreOnMap, signInBrowser, stockOf, uniqueEmail } from './support.ts';

async function fillHomeAddress(page: Page) {
  await page.getByLabel('收件人姓名').fill('王小茶');
  await page.getByLabel('手機號碼').fill('0912345678');
  await page.getByLabel('縣市').selectOption('南投縣');
  await page.getByLabel('鄉鎮市區').selectOption('鹿谷鄉');
  await expect(page.getByText('558', { exact: true })).toBeVisible();
  await page.getByLabel('地址', { exact: true }).fill('興產路 87 號');
}

const orderNoFrom = (page: Page) => new URL(page.url()).searchParams.get('order')!;

test.describe('checkout and payment', () => {
  test('a card payment through the sandbox gateway: paid order, stock taken, mails sent', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('card');
    await signInBrowser(context, email);
    const before = await stockOf(page, 'alishan-jinxuan-oolong', 'SL-JX-075');
    await addToCart(page, 'alishan-jinxuan-oolong');
    await page.getByRole('link', { name: /購物車，共 1 件商品/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: '購物車' })).toBeVisible();
    await page.getByRole('link', { name: '前往結帳' }).click();
    await expect(page).toHaveURL('/payment');
    await fillHomeAddress(page);
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單並付款' }).click();

    await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
    await expect(page.getByText('這是測試用付款閘道')).toBeVisible();
    await page.getByRole('button', { name: '付款', exact: true }).click();

    await expect(page).toHaveURL(/\/payComplete\?order=TW\d{14}$/);
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    const orderNo = orderNoFrom(page);
    expect(await orderStatus(page, orderNo)).toBe('paid');
    expect(await stockOf(page, 'alishan-jinxuan-oolong', 'SL-JX-075')).toBe(before - 1);
    await waitForMail(email, `訂單已成立：${orderNo}`);
    await waitForMail(email, `付款完成：${orderNo}`);
  });

  test('back from the gateway without paying, the checkout shows the order just placed and how to pay it', async ({
    page,
    context,
  }) => {
    await signInBrowser(context);
    await addToCart(page, 'charcoal-roasted-tieguanyin');
    await page.goto('/payment');
    await fillHomeAddress(page);
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
    await page.goBack();
    await expect(page).toHaveURL('/payment');
    await expect(page.getByTestId('pay-outcome')).toHaveText('訂單已成立，尚未付款');
    await expect(page.getByText(/訂單編號 TW\d{14}/)).toBeVisible();
    await expect(page.getByText('購物車是空的')).toHaveCount(0);
    await page.getByRole('button', { name: '前往付款' }).click();
    await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
  });

  test('a failed card payment, then a successful retry', async ({ page, context }) => {
    await signInBrowser(context);
    await addToCart(page, 'charcoal-roasted-tieguanyin');
    await page.goto('/payment');
    await fillHomeAddress(page);
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await page.getByRole('button', { name: '模擬付款失敗' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款未成功');
    const orderNo = orderNoFrom(page);
    expect(await orderStatus(page, orderNo)).toBe('payment_failed');

    await page.getByRole('button', { name: '重新付款' }).click();
    await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    expect(orderNoFrom(page)).toBe(orderNo);
    expect(await orderStatus(page, orderNo)).toBe('paid');
  });

  test('an ATM order shows its virtual account, mails it, and is paid when the transfer arrives', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('atm');
    await signInBrowser(context, email);
    await addToCart(page, 'honey-scented-black-tea');
    await page.goto('/payment');
    await fillHomeAddress(page);
    await page.getByLabel(/ATM 轉帳/).check();
    // Payment comes later, by transfer: the button says what happens now.
    await page.getByRole('button', { name: '送出訂單並取得轉帳帳號' }).click();
    await page.getByRole('button', { name: '取得虛擬帳號' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('請完成 ATM 轉帳');
    // The bank by code and name, the account in groups of four, the deadline with its time.
    await expect(page.getByTestId('atm-bank')).toHaveText('812 台新銀行');
    const shown = await page.getByTestId('atm-account').innerText();
    expect(shown).toMatch(/^\d{4} \d{4} \d{4} \d{2}$/);
    await expect(page.getByTestId('atm-deadline')).toHaveText(/^\d{4}\/\d{2}\/\d{2} 23:59 前$/);
    await expect(page.getByRole('button', { name: '複製虛擬帳號' })).toBeVisible();
    const orderNo = orderNoFrom(page);
    expect(await orderStatus(page, orderNo)).toBe('pending_payment');
    const mail = await waitForMail(email, `ATM 轉帳資訊：${orderNo}`);
    expect(mail.text).toContain(`銀行代碼：812 台新銀行`);
    expect(mail.text).toContain(`虛擬帳號：${shown}`);
    expect(mail.text).toMatch(/請於 \d{4}\/\d{2}\/\d{2} 23:59 前轉帳/);
    // The order page says the same.
    await page.goto(`/member/orderList/${orderNo}`);
    const onOrderPage = page.getByRole('region', { name: '請完成 ATM 轉帳' });
    await expect(onOrderPage.getByTestId('atm-bank')).toHaveText('812 台新銀行');
    await expect(onOrderPage.getByTestId('atm-account')).toHaveText(shown);
    await expect(onOrderPage.getByTestId('atm-deadline')).toHaveText(/^\d{4}\/\d{2}\/\d{2} 23:59 前$/);

    await page.goto('/sandbox/ecpay/atm');
    await page
      .getByRole('row', { name: new RegExp(orderNo) })
      .getByRole('button', { name: '模擬完成轉帳' })
      .click();
    await expect(page.getByText('1|OK')).toBeVisible();
    expect(await orderStatus(page, orderNo)).toBe('paid');
  });

  test('cash on delivery to a convenience store: the order is placed and goes straight to processing', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('cod');
    await signInBrowser(context, email);
    const before = await stockOf(page, 'porcelain-gaiwan', 'SL-GW-WHT');
    await addToCart(page, 'porcelain-gaiwan');
    await page.goto('/payment');
    await page
      .getByLabel(/超商取貨/)
      .first()
      .check();
    await page.getByLabel('取件人姓名').fill('王小茶');
    await page.getByLabel('手機號碼').fill('0912345678');
    // The store map (the sandbox's, speaking ECPay's protocol), then back to the checkout.
    await pickStoreOnMap(page, '7-ELEVEN', '鹿谷', '鹿谷門市');
    await expect(page).toHaveURL('/payment');
    await expect(page.getByLabel('取貨門市')).toContainText('7-ELEVEN 鹿谷門市');
    await expect(page.getByLabel('取件人姓名')).toHaveValue('王小茶');
    await page.getByLabel(/超商取貨付款/).check();
    await page.getByRole('button', { name: '送出訂單' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('訂單已成立');
    const orderNo = orderNoFrom(page);
    expect(await orderStatus(page, orderNo)).toBe('processing');
    expect(await stockOf(page, 'porcelain-gaiwan', 'SL-GW-WHT')).toBe(before - 1);
    await waitForMail(email, `訂單已成立：${orderNo}`);
    await page.goto(`/member/orderList/${orderNo}`);
    await expect(page.getByText(/門市/).first()).toBeVisible();
    await expect(page.getByLabel('配送資訊')).toContainText('7-ELEVEN');
  });

  test('an unverified account is asked to verify at checkout, can resend the mail, and orders once verified', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('unverified');
    const password = '先驗證再下單-2026-茶';
    const signedUp = Date.now();
    const registered = await context.request.post('/api/auth/register', {
      data: { displayName: '王小茶', email, password, passwordConfirm: password, acceptTerms: true },
    });
    expect(registered.status()).toBe(201);
    // A product no other test buys: its stock is compared before and after, and tests run in parallel.
    const before = await stockOf(page, 'celadon-fair-cup', 'SL-CH-CLD');
    await addToCart(page, 'celadon-fair-cup');
    await page.goto('/payment');
    const notice = page.getByRole('status').filter({ hasText: '請先完成電子郵件驗證' });
    // The notice waits for the fresh current-user answer, the page's last request: on the two-core CI
    // machine running both browsers and the server it once came after 7 s.
    await expect(notice).toBeVisible({ timeout: 15_000 });
    await expect(notice).toContainText(email);
    await expect(page.getByRole('button', { name: '送出訂單並付款' })).toBeDisabled();
    // The resend is offered right there (counting down: the sign-up mail went out a moment ago).
    await expect(notice.getByRole('button', { name: /重新寄送/ })).toBeVisible();
    // Nothing was ordered or held meanwhile, even by a request sent around the page.
    const direct = await page.request.post('/api/orders', {
      data: {
        idempotencyKey: `unverified-${Date.now()}-000000`,
        shipping: {
          method: 'home',
          recipientName: '王小茶',
          phone: '0912345678',
          city: '南投縣',
          district: '鹿谷鄉',
          address: '興產路 87 號',
        },
        invoice: { type: 'member' },
        paymentMethod: 'cod',
      },
    });
    expect(direct.status()).toBe(403);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe('email-not-verified');
    expect(await stockOf(page, 'celadon-fair-cup', 'SL-CH-CLD')).toBe(before);

    await page.goto(linkIn(await waitForMail(email, '請驗證您的電子郵件', { after: signedUp - 1000 })));
    await expect(page.getByRole('heading', { name: '電子郵件驗證完成' })).toBeVisible();
    await page.goto('/payment');
    await expect(page.getByText('請先完成電子郵件驗證')).toHaveCount(0);
    await fillHomeAddress(page);
    await page.getByLabel(/貨到付款/).check();
    await page.getByRole('button', { name: '送出訂單' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('訂單已成立');
    await waitForMail(email, `訂單已成立：${orderNoFrom(page)}`);
  });

  test('the tracking page updates without a reload when the order ships', async ({
    page,
    context,
    browser,
  }) => {
    await signInBrowser(context);
    // Not the gaiwan: the store-pickup test counts that one's stock while this runs beside it.
    await addToCart(page, 'tasting-cup-set');
    await page.goto('/payment');
    await fillHomeAddress(page);
    await page.getByLabel(/貨到付款/).check();
    await page.getByRole('button', { name: '送出訂單' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('訂單已成立');
    const orderNo = orderNoFrom(page);

    await page.goto(`/member/orderTracking/${orderNo}`);
    const timeline = page.getByRole('list', { name: '訂單進度' });
    await expect(timeline).toContainText('備貨中');
    await expect(timeline).not.toContainText('已建立出貨單');
    const loads: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && loads.push(f.url()));

    const staff = await browser.newContext();
    await signInBrowser(staff, uniqueEmail('staff'), 'staff');
    const shipped = await staff.request.post(`/api/admin/orders/${orderNo}/advance`, {
      data: { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '905512345678', location: '南投鹿谷' },
    });
    expect(shipped.ok()).toBe(true);
    await expect(timeline).toContainText('已建立出貨單');
    // The slip comes before 已出貨, which is the current step.
    await expect(timeline.getByRole('listitem')).toHaveText([/^備貨中/, /^已建立出貨單/, /^已出貨/]);
    await expect(timeline.locator('[aria-current="step"]')).toHaveText(/^已出貨/);
    await expect(page.getByText('905512345678').first()).toBeVisible();
    // The number opens the parcel on the carrier's own page (黑貓 takes it in the address).
    await expect(page.getByRole('link', { name: /905512345678/ }).first()).toHaveAttribute(
      'href',
      'https://www.t-cat.com.tw/Inquire/TraceDetail.aspx?BillID=905512345678',
    );
    await staff.request.post(`/api/admin/orders/${orderNo}/advance`, {
      data: { shipmentEvent: 'in_transit', location: '台中轉運中心' },
    });
    await expect(timeline).toContainText('台中轉運中心');
    expect(loads).toEqual([]);
    await staff.close();
  });
});
