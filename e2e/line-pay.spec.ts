import type { Page } from '@playwright/test';
import { expect, test } from './test.ts';
import { addToCart, fillHomeAddress, orderStatus, signInBrowser, uniqueEmail } from './support.ts';

/** Checkout with LINE Pay up to LINE Pay's (sandbox) payment page. */
async function toLinePay(page: Page) {
  await addToCart(page, 'charcoal-roasted-tieguanyin');
  await page.goto('/payment');
  await fillHomeAddress(page);
  await page.getByLabel(/^LINE Pay/).check();
  await expect(page.getByText('將前往 LINE Pay 完成付款，付款後自動回到本店').first()).toBeVisible();
  await expect(page.getByTestId('order-total')).not.toHaveText('…');
  await page.getByRole('button', { name: '送出訂單並前往 LINE Pay' }).click();
  await expect(page).toHaveURL(/\/sandbox\/linepay\/web\/payment\/wait\?transactionReserveId=/);
  await expect(page.getByText('這是測試用的 LINE Pay 付款頁')).toBeVisible();
}

const orderNoFrom = (page: Page) => new URL(page.url()).searchParams.get('order')!;

test.describe('LINE Pay', () => {
  test('paid with LINE Pay: back at the shop, paid once even when the return comes twice', async ({
    page,
    context,
  }) => {
    await signInBrowser(context, uniqueEmail('linepay-paid'));
    await toLinePay(page);
    await page.getByLabel('付款後同時兩次回到商店（重複確認）').check();
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page).toHaveURL(/\/payComplete\?order=TW\d{14}$/);
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    const orderNo = orderNoFrom(page);
    expect(await orderStatus(page, orderNo)).toBe('paid');
    const order = (await (await page.request.get(`/api/orders/${orderNo}`)).json()) as {
      events: Array<{ status: string | null }>;
    };
    expect(order.events.filter((e) => e.status === 'paid')).toHaveLength(1);
  });

  test('cancelled on LINE Pay: the order stays payable, and paying again works', async ({
    page,
    context,
  }) => {
    await signInBrowser(context, uniqueEmail('linepay-cancel'));
    await toLinePay(page);
    await page.getByRole('button', { name: '取消付款，回到商店' }).click();
    await expect(page).toHaveURL(/\/payComplete\?order=TW\d{14}$/);
    await expect(page.getByTestId('pay-outcome')).toHaveText('已取消 LINE Pay 付款');
    const orderNo = orderNoFrom(page);
    expect(await orderStatus(page, orderNo)).toBe('pending_payment');
    await page.getByRole('button', { name: /前往付款|重新付款/ }).click();
    await expect(page).toHaveURL(/\/sandbox\/linepay\/web\/payment\/wait/);
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
  });

  test('staff refund a LINE Pay order from the console; the console shows its transaction', async ({
    page,
    context,
    browser,
  }) => {
    await signInBrowser(context, uniqueEmail('linepay-refund'));
    await toLinePay(page);
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    const orderNo = orderNoFrom(page);

    const staffContext = await browser.newContext();
    await signInBrowser(staffContext, uniqueEmail('linepay-staff'), 'staff');
    const staff = await staffContext.newPage();
    await staff.goto(`/admin/orders/${orderNo}`);
    await expect(staff.getByText('LINE Pay 交易序號')).toBeVisible();
    await expect(staff.getByText(/^\d{19}$/)).toBeVisible();
    await staff.getByRole('button', { name: '退款' }).click();
    await staff.getByRole('dialog').getByLabel('退款原因').fill('買家改變心意');
    await staff.getByRole('dialog').getByRole('button', { name: '確認退款' }).click();
    await expect(staff.getByText('已退款').first()).toBeVisible();
    await expect
      .poll(async () => {
        const o = (await (await page.request.get(`/api/orders/${orderNo}`)).json()) as {
          refunds: Array<{ method: string; status: string }>;
        };
        return o.refunds.map((r) => `${r.method}:${r.status}`);
      })
      .toEqual(['line_pay:done']);
    await staffContext.close();
  });
});
