import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  BinaryBitmap,
  Code39Reader,
  DecodeHintType,
  HybridBinarizer,
  RGBLuminanceSource,
} from '@zxing/library';
import { expect, test } from './test.ts';
import { waitForMail } from './mailbox.ts';
import { PHONE, addToCart, fillHomeAddress, orderStatus, signInBrowser, uniqueEmail } from './support.ts';

/*
 * 超商代碼, 超商條碼 and card instalments through the built-in ECPay sandbox: a code shown and paid at
 * the "store"; barcodes shown, printed to PDF and scanned back (poppler's pdftoppm renders the page,
 * ZXing reads the Code 39); an instalment order paid and refunded whole.
 * SHOTS_DIR=<dir> also saves the new screens at 390 px and 1280 px, for looking at them.
 */

const orderNoFrom = (page: Page) => new URL(page.url()).searchParams.get('order')!;

async function shot(page: Page, name: string, part?: Locator) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  for (const viewport of [PHONE, { width: 1280, height: 900 }]) {
    await page.setViewportSize(viewport);
    const file = path.join(dir, `${name}-${viewport.width}.png`);
    await (part ? part.screenshot({ path: file }) : page.screenshot({ path: file }));
  }
  if (size) await page.setViewportSize(size);
}

async function checkoutWith(page: Page, method: RegExp, submit: string) {
  await page.goto('/payment');
  await fillHomeAddress(page);
  await expect(page.getByTestId('order-total')).not.toHaveText('…');
  await page.getByRole('radio', { name: method }).check();
  await shot(page, `checkout-${method.source}`, page.getByRole('region', { name: '付款方式' }));
  await page.getByRole('button', { name: submit }).click();
  await expect(page).toHaveURL(/\/sandbox\/ecpay\/aio$/);
}

/** Pays a waiting code or barcode at the sandbox's "store", as the buyer would at the counter. */
async function payAtStore(page: Page, orderNo: string) {
  await page.goto('/sandbox/ecpay/store');
  const row = page.locator(`tr[data-trade="${orderNo}P1"]`);
  await row.getByRole('button', { name: '模擬到超商繳費' }).click();
  await expect(page.getByText('商店回應：1|OK')).toBeVisible();
}

/** The Code 39 symbols ZXing finds on a greyscale page (PGM), read band by band from top to bottom. */
function scanCode39(pgmFile: string): string[] {
  const data = fs.readFileSync(pgmFile);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a greyscale PGM');
  const [whole, w, h] = header;
  const width = Number(w);
  const height = Number(h);
  const pixels = new Uint8ClampedArray(data.subarray(whole.length, whole.length + width * height));
  const reader = new Code39Reader();
  const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.TRY_HARDER, true]]);
  const found: string[] = [];
  const band = 60;
  for (let top = 0; top + band <= height; top += 20) {
    const source = new RGBLuminanceSource(pixels, width, height).crop(0, top, width, band);
    try {
      const text = reader.decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
      if (found.at(-1) !== text) found.push(text);
    } catch {
      // No barcode in this band.
    }
  }
  return found;
}

test.describe('paying at a convenience store and in instalments (ECPay sandbox)', () => {
  test('a CVS code is shown, mailed, and paid at the store', async ({ page, context }) => {
    const email = uniqueEmail('cvs');
    await signInBrowser(context, email);
    await addToCart(page, 'alishan-jinxuan-oolong');
    await checkoutWith(page, /超商代碼繳費/, '送出訂單並取得繳費代碼');
    await expect(page.getByRole('heading', { name: '超商代碼繳費' })).toBeVisible();
    await page.getByRole('button', { name: '取得繳費代碼' }).click();

    await expect(page).toHaveURL(/\/payComplete\?order=TW\d{14}$/);
    await expect(page.getByTestId('pay-outcome')).toHaveText('請到超商繳費');
    const code = (await page.getByTestId('store-payment-no').textContent())!;
    expect(code).toMatch(/^LLL\d{11}$/);
    await expect(page.getByText(/7-ELEVEN ibon、全家 FamiPort、萊爾富 Life-ET、OK 超商 OK‧go/)).toBeVisible();
    await expect(page.getByTestId('store-deadline')).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} 前$/);
    const orderNo = orderNoFrom(page);
    await shot(page, 'pay-complete-cvs', page.getByTestId('pay-outcome').locator('xpath=ancestor::main'));
    const mail = await waitForMail(email, `超商代碼繳費資訊：${orderNo}`);
    expect(mail.text).toContain(`繳費代碼：${code}`);

    await page.goto(`/member/orderList/${orderNo}`);
    await expect(page.getByRole('region', { name: '請到超商繳費' })).toContainText(code);
    await payAtStore(page, orderNo);
    expect(await orderStatus(page, orderNo)).toBe('paid');
  });

  test('barcodes are drawn as Code 39: printed to PDF they scan back to Barcode1–3, then paid', async ({
    page,
    context,
  }) => {
    // Printing, rendering and scanning a page take a while on a two-core machine.
    test.slow();
    await signInBrowser(context, uniqueEmail('barcode'));
    await addToCart(page, 'charcoal-roasted-tieguanyin');
    await checkoutWith(page, /超商條碼繳費/, '送出訂單並取得繳費條碼');
    await page.getByRole('button', { name: '取得繳費條碼' }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('請到超商繳費');
    const orderNo = orderNoFrom(page);

    // The member's order page, as it would be printed for the counter.
    await page.goto(`/member/orderList/${orderNo}`);
    await expect(page.getByTestId('store-barcode-image')).toHaveCount(3);
    const barcodes = await Promise.all(
      [1, 2, 3].map(async (i) => (await page.getByTestId(`store-barcode-${i}`).textContent())!.trim()),
    );
    const staff = await (await page.request.get(`/api/orders/${orderNo}`)).json();
    expect(barcodes).toEqual(staff.payment.store.barcodes);
    await shot(page, 'order-page-barcode', page.getByRole('region', { name: '請到超商繳費' }));

    const pdf = test.info().outputPath('barcodes.pdf');
    await page.pdf({ path: pdf, format: 'A4', printBackground: true });
    const prefix = test.info().outputPath('page');
    execFileSync('pdftoppm', ['-r', '200', '-gray', pdf, prefix]);
    const pages = fs
      .readdirSync(path.dirname(prefix))
      .filter((f) => f.startsWith('page') && f.endsWith('.pgm'))
      .sort();
    const scanned = pages.flatMap((f) => scanCode39(path.join(path.dirname(prefix), f)));
    expect(scanned).toEqual(barcodes);

    await payAtStore(page, orderNo);
    expect(await orderStatus(page, orderNo)).toBe('paid');
  });

  test('an instalment order: the term chosen under 信用卡, paid at the sandbox, refunded whole', async ({
    page,
    context,
    browser,
  }) => {
    const owner = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    await signInBrowser(owner, uniqueEmail('installments-owner'), 'owner');
    const saved = await (await owner.request.get('/api/admin/settings/store-payments')).json();
    // Instalments from NT$100, so a single tin may be split.
    expect(
      (
        await owner.request.put('/api/admin/settings/store-payments', {
          data: { ...saved, installments: { terms: [3, 6, 12], minAmount: 100 } },
        })
      ).ok(),
    ).toBe(true);
    try {
      await signInBrowser(context, uniqueEmail('installments'));
      await addToCart(page, 'alishan-jinxuan-oolong');
      await page.goto('/payment');
      await fillHomeAddress(page);
      await expect(page.getByTestId('order-total')).not.toHaveText('…');
      const total = Number((await page.getByTestId('order-total').textContent())!.replace(/\D/g, ''));
      const each = Math.floor(total / 3);
      const first = total - each * 2;
      const term = page.getByRole('radio', { name: /分 3 期/ });
      await expect(term).toBeVisible();
      await term.check();
      await expect(page.getByText(/分 3 期，(每期|第一期) NT\$/).first()).toBeVisible();
      await shot(page, 'checkout-installments', page.getByRole('region', { name: '付款方式' }));
      await page.getByRole('button', { name: '送出訂單並付款' }).click();

      await expect(page.getByRole('heading', { name: '信用卡分期付款' })).toBeVisible();
      await expect(page.getByTestId('sandbox-installments')).toHaveText(
        first === each
          ? `分 3 期，每期 NT$${each.toLocaleString('en-US')}`
          : `分 3 期，第一期 NT$${first.toLocaleString('en-US')}，之後每期 NT$${each.toLocaleString('en-US')}`,
      );
      await page.getByRole('button', { name: '付款', exact: true }).click();
      await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
      const orderNo = orderNoFrom(page);
      await expect(page.getByTestId('order-installments')).toContainText('分 3 期');

      // The console shows the term; staff cancel the paid order and the card is refunded in full.
      const staffPage = await owner.newPage();
      await staffPage.goto(`/admin/orders/${orderNo}`);
      await expect(staffPage.getByTestId('admin-payment-method')).toContainText('分 3 期');
      await shot(staffPage, 'console-order-installments');
      await staffPage.goto('/admin/settings');
      await shot(staffPage, 'console-settings', staffPage.getByRole('form', { name: '超商繳費與分期' }));
      const cancel = await owner.request.post(`/api/admin/orders/${orderNo}/advance`, {
        data: { status: 'cancelled', reason: '顧客改變心意' },
      });
      expect(cancel.ok(), await cancel.text()).toBe(true);
      await expect
        .poll(async () => (await (await page.request.get(`/api/orders/${orderNo}`)).json()).refunds, {
          timeout: 15_000,
        })
        .toEqual([expect.objectContaining({ method: 'card', amount: total, status: 'done' })]);
    } finally {
      await owner.request.put('/api/admin/settings/store-payments', { data: saved });
      await owner.close();
    }
  });
});
