import { expect, test } from '@playwright/test';
import { addToCart, signInBrowser, uniqueEmail } from './support.ts';

test.describe('store pickup through the store map', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('on a phone: the map opens in its phone layout, the chosen island store comes back to a checkout that kept everything typed, priced by the outlying rule', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('cvs-map'));
    await addToCart(page, 'porcelain-gaiwan');
    await page.goto('/payment');
    await page.getByLabel(/超商取貨/).first().check();
    await page.getByLabel('取件人姓名').fill('王小茶');
    await page.getByLabel('手機號碼').fill('0912345678');
    await page.getByLabel(/手機條碼載具/).check();
    await page.getByLabel('手機條碼', { exact: true }).fill('/abc1234');
    await page.getByRole('textbox', { name: '備註（選填）' }).fill('請幫我包成禮物，謝謝。');

    await page.getByRole('button', { name: '開啟 7-ELEVEN 門市地圖' }).click();
    await expect(page.getByRole('heading', { name: '7-ELEVEN 電子地圖（手機版）' })).toBeVisible();
    await page.getByRole('searchbox').fill('澎湖');
    await page.getByRole('button', { name: '搜尋' }).click();
    await expect(page.getByText('離島').first()).toBeVisible();
    await page.getByRole('button', { name: '選擇 馬公門市' }).click();

    await expect(page).toHaveURL('/payment');
    const store = page.getByLabel('取貨門市');
    await expect(store).toContainText('7-ELEVEN 馬公門市');
    await expect(store).toContainText('澎湖縣馬公市中正路 38 號');
    await expect(store).toContainText('離島門市');
    await expect(page.getByLabel('取件人姓名')).toHaveValue('王小茶');
    await expect(page.getByLabel('手機號碼')).toHaveValue('0912345678');
    await expect(page.getByLabel('手機條碼', { exact: true })).toHaveValue('/ABC1234');
    await expect(page.getByRole('textbox', { name: '備註（選填）' })).toHaveValue('請幫我包成禮物，謝謝。');
    await expect(page.getByRole('complementary')).toContainText('離島加收運費');
    await expect(page.getByTestId('free-shipping-hint')).toHaveText('再買 NT$120 即可免運費；離島加收的 NT$150 不適用免運，仍會收取。');

    // Paid by card on the sandbox gateway: the order ships to the island store.
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    const orderNo = new URL(page.url()).searchParams.get('order');
    await page.goto(`/member/orderList/${orderNo}`);
    await expect(page.getByLabel('配送資訊')).toContainText('7-ELEVEN 馬公門市');
  });

  test('the address book saves a store picked on the map, and reopens as it was left', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('cvs-book'));
    await page.goto('/member');
    await page.getByRole('button', { name: '新增地址或門市' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('超商門市').check();
    await dialog.getByLabel('名稱（選填）').fill('公司樓下');
    await dialog.getByLabel('取件人姓名').fill('王小茶');
    await dialog.getByLabel('手機號碼').fill('0912345678');
    await dialog.getByLabel('全家').check();
    await dialog.getByRole('button', { name: '開啟 全家 門市地圖' }).click();
    await page.getByRole('searchbox').fill('信義');
    await page.getByRole('button', { name: '搜尋' }).click();
    await page.getByRole('button', { name: '選擇 全家 信義松高店' }).click();

    await expect(page).toHaveURL('/member');
    await expect(dialog.getByLabel('取貨門市')).toContainText('全家 信義松高店');
    await expect(dialog.getByLabel('名稱（選填）')).toHaveValue('公司樓下');
    await expect(dialog.getByLabel('取件人姓名')).toHaveValue('王小茶');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await expect(page.getByText('地址已儲存。')).toBeVisible();
    await expect(page.getByRole('main')).toContainText('全家 信義松高店');
  });
});
