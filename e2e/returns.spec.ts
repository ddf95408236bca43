import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { waitForMail } from './mailbox.ts';
import { addToCart, signInBrowser, stockOf, uniqueEmail } from './support.ts';

const SLUG = 'alishan-jinxuan-oolong';
const SKU = 'SL-JX-075';

/** The member's order page as the member sees it (API), for waiting on the background work. */
const orderJson = async (page: Page, orderNo: string) =>
  (await (await page.request.get(`/api/orders/${orderNo}`)).json()) as {
    refunds: Array<{ status: string }>;
    issuedInvoice: {
      status: string;
      invoiceNo?: string;
      randomNumber?: string;
      allowances?: Array<{ allowanceNo: string; state: string }>;
    } | null;
  };

test('a card order is invoiced, one item is returned, and the money, the invoice and the stock follow', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('return');
  await signInBrowser(context, email);

  // Two tins: one will go back.
  await addToCart(page, SLUG);
  await addToCart(page, SLUG);
  await page.goto('/payment');
  await page.getByLabel('收件人姓名').fill('王小茶');
  await page.getByLabel('手機號碼').fill('0912345678');
  await page.getByLabel('縣市').selectOption('南投縣');
  await page.getByLabel('鄉鎮市區').selectOption('鹿谷鄉');
  await page.getByLabel('地址', { exact: true }).fill('興產路 87 號');
  await expect(page.getByTestId('order-total')).not.toHaveText('…');
  await page.getByRole('button', { name: '送出訂單並付款' }).click();
  await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
  await page.getByRole('button', { name: '付款', exact: true }).click();
  await expect(page).toHaveURL(/\/payComplete\?order=TW\d{14}$/);
  const orderNo = new URL(page.url()).searchParams.get('order')!;

  // The invoice is issued in the background: its number and random code reach the order page and the mail.
  await expect
    .poll(async () => (await orderJson(page, orderNo)).issuedInvoice?.status, { timeout: 15_000 })
    .toBe('issued');
  const invoice = (await orderJson(page, orderNo)).issuedInvoice!;
  await page.goto(`/member/orderList/${orderNo}`);
  const shown = page.getByTestId('issued-invoice');
  await expect(shown).toContainText(`${invoice.invoiceNo!.slice(0, 2)}-${invoice.invoiceNo!.slice(2)}`);
  await expect(shown).toContainText(invoice.randomNumber!);
  const invoiceMail = await waitForMail(email, `電子發票已開立：${orderNo}`);
  expect(invoiceMail.text).toContain(`隨機碼：${invoice.randomNumber}`);

  // The shop ships and the parcel arrives.
  const owner = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await signInBrowser(owner, uniqueEmail('return-owner'), 'owner');
  for (const data of [
    { status: 'processing' },
    { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '123456789012' },
    { shipmentEvent: 'delivered' },
  ]) {
    expect((await owner.request.post(`/api/admin/orders/${orderNo}/advance`, { data })).ok()).toBe(true);
  }

  // The member asks to return one of the two tins.
  await page.reload();
  await page.getByRole('button', { name: '申請退貨' }).click();
  await expect(page).toHaveURL(/\?return=new$/);
  const form = page.getByRole('form', { name: '申請退貨' });
  await form.getByRole('button', { name: '送出退貨申請' }).click();
  await expect(form.getByText('請選擇退貨原因')).toBeVisible();
  await form.getByLabel('數量').selectOption('1');
  await form.getByLabel(/退貨原因/).selectOption('damaged');
  await form.getByLabel(/補充說明/).fill('罐子在運送中凹了一角');
  await form.getByRole('button', { name: '送出退貨申請' }).click();
  await expect(page.getByText('已送出退貨申請，客服審核後會寄信通知您。')).toBeVisible();
  const returns = page.getByRole('list', { name: '退貨申請' });
  await expect(returns).toContainText(`${orderNo}-R1`);
  await expect(returns).toContainText('等待審核');
  await waitForMail(email, `已收到您的退貨申請：${orderNo}`);

  // Staff approve in the console.
  const staffPage = await owner.newPage();
  await staffPage.goto(`/admin/orders/${orderNo}`);
  const card = staffPage.getByRole('region', { name: '退貨申請' });
  await card.getByRole('button', { name: '核准', exact: true }).click();
  await staffPage.getByLabel('給會員的留言').fill('請用原包裝寄回');
  await staffPage.getByRole('button', { name: '核准退貨' }).click();
  await expect(card.getByRole('button', { name: '確認收到退貨' })).toBeVisible();
  const approved = await waitForMail(email, `退貨申請已核准：${orderNo}`);
  expect(approved.text).toContain('客服留言：請用原包裝寄回');
  await page.reload();
  await expect(page.getByRole('list', { name: '退貨申請' })).toContainText('已核准，等待寄回');

  // The tin arrives intact: back to stock, and the money goes back through the card sandbox.
  const stockBefore = await stockOf(page, SLUG, SKU);
  await card.getByRole('button', { name: '確認收到退貨' }).click();
  await staffPage.getByRole('radio', { name: '放回庫存' }).check();
  await staffPage.getByRole('button', { name: '確認收貨並退款' }).click();
  await expect(card).toContainText('已收到退貨');
  expect(await stockOf(page, SLUG, SKU)).toBe(stockBefore + 1);

  await expect
    .poll(async () => (await orderJson(page, orderNo)).refunds.map((r) => r.status).join(), {
      timeout: 15_000,
    })
    .toBe('done');
  await waitForMail(email, `已收到退貨商品：${orderNo}`);
  const refunded = await waitForMail(email, `退款已辦理：${orderNo}`);
  expect(refunded.text).toContain('信用卡退款會退回原付款卡片');
  // The allowance is asked for online: the buyer agrees in ECPay's mail (the sandbox's consent page stands for its link).
  await waitForMail(email, `請同意發票折讓：${orderNo}`);
  const asked = (await orderJson(page, orderNo)).issuedInvoice!;
  const pending = asked.allowances!.find((a) => a.state === 'pending')!;
  expect(
    (
      await page.request.post(`/sandbox/ecpay/einvoice/consent/${asked.invoiceNo}/${pending.allowanceNo}`)
    ).ok(),
  ).toBe(true);
  const allowance = await waitForMail(email, `發票折讓已開立：${orderNo}`);
  expect(allowance.text).toMatch(/已開立折讓 NT\$\d/);

  // The member sees each step on the order page.
  await page.reload();
  await expect(page.getByRole('list', { name: '退貨申請' })).toContainText('已退款');
  await expect(page.getByRole('list', { name: '退款紀錄' })).toContainText('已退款');
  await expect(page.getByRole('list', { name: '發票折讓' })).toContainText('折讓');
  await owner.close();
});
