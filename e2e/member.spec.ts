import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { signInBrowser, uniqueEmail } from './support.ts';

async function checkoutHome(page: Page) {
  await page.goto('/payment');
  await page.getByLabel('收件人姓名').fill('王小茶');
  await page.getByLabel('手機號碼').fill('0912345678');
  await page.getByLabel('縣市').selectOption('臺北市');
  await page.getByLabel('鄉鎮市區').selectOption('信義區');
  await page.getByLabel('地址', { exact: true }).fill('松仁路 100 號');
}

test.describe('member area', () => {
  test('a coupon at checkout: the discounted total shows on /payComplete and in the order detail', async ({
    page,
    context,
  }) => {
    await signInBrowser(context);
    await page.goto('/mall/dayuling-reserve-gift-box');
    await page.getByRole('button', { name: '加入購物車' }).click();
    await expect(page.getByText(/已加入購物車/)).toBeVisible();
    await checkoutHome(page);
    const total = page.getByTestId('order-total');
    await expect(total).toHaveText('NT$3,600');
    const mine = page.getByRole('listitem').filter({ hasText: '新會員見面禮' });
    await mine.getByRole('button', { name: '使用' }).click();
    await expect(page.getByText('已套用優惠碼 WELCOME200')).toBeVisible();
    await expect(page.getByText('優惠碼 WELCOME200（新會員見面禮）')).toBeVisible();
    await expect(total).toHaveText('NT$3,400');

    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    await expect(page.getByText('優惠碼 WELCOME200（新會員見面禮）')).toBeVisible();
    await expect(page.getByTestId('order-detail-total')).toHaveText('NT$3,400');
    const orderNo = new URL(page.url()).searchParams.get('order')!;
    await page.goto(`/member/orderList/${orderNo}`);
    await expect(page.getByText('−NT$200')).toBeVisible();
    await expect(page.getByTestId('order-detail-total')).toHaveText('NT$3,400');

    // Used once: now it says so.
    await page.goto('/member/membershipAndDiscounts');
    await expect(page.getByRole('listitem').filter({ hasText: 'WELCOME200' })).toContainText('已使用');
  });

  test('the tier progress changes live after a paid order', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('tier'));
    await page.goto('/member');
    await expect(page.getByTestId('tier-name')).toHaveText('一般會員');
    await expect(page.getByTestId('tier-to-next')).toContainText('再消費 NT$6,000 即可升級為銀卡會員');

    const shop = await context.newPage();
    await shop.goto('/mall/yingge-zhuni-teapot');
    await shop.getByRole('button', { name: '增加數量' }).click();
    await shop.getByRole('button', { name: '增加數量' }).click();
    await shop.getByRole('button', { name: '加入購物車' }).click();
    await expect(shop.getByText(/已加入購物車/)).toBeVisible();
    await checkoutHome(shop);
    await shop.getByRole('button', { name: '送出訂單並付款' }).click();
    await shop.getByRole('button', { name: '付款', exact: true }).click();
    await expect(shop.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');

    // The member home, open all along in the first tab, updates without a reload.
    await expect(page.getByTestId('tier-name')).toHaveText('銀卡會員');
    await expect(page.getByTestId('tier-to-next')).toContainText('即可升級為金卡會員');
  });

  test('the demo member signs in to a lived-in member area', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('電子郵件').fill('demo@shanlan-tea.example');
    await page.getByLabel('密碼', { exact: true }).fill('山嵐茶事-demo-2026');
    await page.getByRole('button', { name: '登入' }).click();
    await expect(page).toHaveURL('/');
    await page.goto('/member');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('林小嵐');
    await expect(page.getByTestId('tier-name')).toHaveText('銀卡會員');
    await expect(page.getByRole('heading', { name: '最近的訂單' })).toBeVisible();
    await expect(page.getByText('家裡')).toBeVisible();
  });
});
