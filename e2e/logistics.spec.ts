import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { waitForMail } from './mailbox.ts';
import { addToCart, pickStoreOnMap, signInBrowser, stockOf, uniqueEmail } from './support.ts';

test.describe('store pickup through the store map', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('on a phone: the map opens in its phone layout, the chosen island store comes back to a checkout that kept everything typed, priced by the outlying rule', async ({
    page,
    context,
  }) => {
    // A product no stock-comparing test buys (tests run in parallel).
    await signInBrowser(context, uniqueEmail('cvs-map'));
    await addToCart(page, 'ruby-cold-brew-tea-bags');
    await page.goto('/payment');
    await page
      .getByLabel(/超商取貨/)
      .first()
      .check();
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
    await expect(page.getByTestId('free-shipping-hint')).toHaveText(
      /^再買 NT\$[\d,]+ 即可免運費；離島加收的 NT\$150 不適用免運，仍會收取。$/,
    );

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

  test('the address book saves a store picked on the map, and reopens as it was left', async ({
    page,
    context,
  }) => {
    await signInBrowser(context, uniqueEmail('cvs-book'));
    await page.goto('/member');
    await page.getByRole('button', { name: '新增地址或門市' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('超商門市').check();
    await dialog.getByLabel('名稱（選填）').fill('公司樓下');
    await dialog.getByLabel('取件人姓名').fill('王小茶');
    await dialog.getByLabel('手機號碼').fill('0912345678');
    await dialog.getByLabel('全家').check();
    await pickStoreOnMap(page, '全家', '信義', '全家 信義松高店');

    await expect(page).toHaveURL('/member');
    await expect(dialog.getByLabel('取貨門市')).toContainText('全家 信義松高店');
    await expect(dialog.getByLabel('名稱（選填）')).toHaveValue('公司樓下');
    await expect(dialog.getByLabel('取件人姓名')).toHaveValue('王小茶');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await expect(page.getByText('地址已儲存。')).toBeVisible();
    await expect(page.getByRole('main')).toContainText('全家 信義松高店');

    // Deleting asks in the shop's own dialog (not the browser's), naming what goes.
    await page
      .getByRole('listitem')
      .filter({ hasText: '全家 信義松高店' })
      .getByRole('button', { name: '刪除' })
      .click();
    const ask = page.getByRole('dialog', { name: '刪除這筆地址？' });
    await expect(ask).toContainText('公司樓下');
    await ask.getByRole('button', { name: '確定刪除' }).click();
    await expect(page.getByText('已刪除。')).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText('全家 信義松高店');
  });

  test('the parcel’s journey: paid by card, staff ship through ECPay and print the label, the sandbox reports it at the store while the tracking page is open (deadline shown, mail sent), then collected', async ({
    page,
    context,
    browser,
  }) => {
    const email = uniqueEmail('cvs-parcel');
    await signInBrowser(context, email);
    await addToCart(page, 'ruby-cold-brew-tea-bags');
    await page.goto('/payment');
    await page
      .getByLabel(/超商取貨/)
      .first()
      .check();
    await page.getByLabel('取件人姓名').fill('王小茶');
    await page.getByLabel('手機號碼').fill('0912345678');
    await pickStoreOnMap(page, '7-ELEVEN', '鹿谷', '鹿谷門市');
    await expect(page.getByLabel('取貨門市')).toContainText('7-ELEVEN 鹿谷門市');
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    const orderNo = new URL(page.url()).searchParams.get('order')!;
    await page.goto(`/member/orderTracking/${orderNo}`);
    const timeline = page.getByRole('list', { name: '訂單進度' });
    await expect(timeline).toContainText('已付款');
    const loads: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && loads.push(f.url()));

    // Staff ship it through ECPay from the console: the logistics order is made, its number shown.
    const staffContext = await browser.newContext();
    await signInBrowser(staffContext, uniqueEmail('cvs-staff'), 'staff');
    const staff = await staffContext.newPage();
    await staff.goto(`/admin/orders/${orderNo}`);
    await staff.getByRole('button', { name: '開始備貨' }).click();
    await staff.getByRole('dialog').getByRole('button', { name: '開始備貨' }).click();
    // The order has moved (its page re-rendered) before the next action is opened: a dialog opened
    // during that re-render could be closed by it.
    await expect(staff.getByRole('button', { name: '開始備貨' })).toHaveCount(0);
    await staff.getByRole('button', { name: '出貨', exact: true }).click();
    await staff.getByRole('dialog').getByRole('button', { name: '建立物流單並出貨' }).click();
    await expect(staff.getByText('已建立綠界物流單並出貨').first()).toBeVisible();
    await expect(timeline).toContainText('已建立出貨單');
    await expect(timeline).toContainText('7-ELEVEN 交貨便');

    // The label (寄件單) prints from ECPay's print page, in a new tab.
    const [label] = await Promise.all([
      staff.waitForEvent('popup'),
      staff.getByRole('button', { name: '列印寄件單' }).click(),
    ]);
    await expect(label.getByRole('heading', { name: '7-ELEVEN 店到店寄件單' })).toBeVisible();
    await expect(label.getByRole('region', { name: /^寄件單 F\d{11}$/ })).toContainText('鹿谷門市');
    await label.close();

    // The sandbox moves the parcel: at the store. The open tracking page shows it and the deadline.
    await staff.goto('/sandbox/ecpay/logistics/parcels');
    const parcel = staff.getByRole('listitem').filter({ hasText: orderNo });
    await parcel.getByRole('button', { name: '到店' }).click();
    await expect(staff.getByText('1|OK')).toBeVisible();
    await expect(page.getByTestId('pickup-deadline')).toHaveText(
      /^已到店，請於 \d{4}\/\d{2}\/\d{2}（週.）前攜帶證件取貨。$/,
    );
    await waitForMail(email, `包裹已到店：${orderNo}`);

    // Collected at the counter: delivered.
    await staff.goto('/sandbox/ecpay/logistics/parcels');
    await staff
      .getByRole('listitem')
      .filter({ hasText: orderNo })
      .getByRole('button', { name: '已取貨／已送達' })
      .click();
    await expect(staff.getByText('1|OK')).toBeVisible();
    await expect(timeline).toContainText('買家已到店取貨');
    await expect(page.getByText('已送達').first()).toBeVisible();
    await expect(page.getByTestId('pickup-deadline')).toHaveCount(0);
    expect(loads).toEqual([]);
    await staffContext.close();
  });

  test('a parcel nobody collects: it comes back, the order says 包裹退回, staff refund it and the stock returns', async ({
    page,
    context,
    browser,
  }) => {
    // A product no other stock-comparing test buys (tests run in parallel).
    const before = await stockOf(page, 'oriental-beauty-pyramid-tea-bags', 'SL-TB-OB-12');
    await signInBrowser(context, uniqueEmail('cvs-uncollected'));
    await addToCart(page, 'oriental-beauty-pyramid-tea-bags');
    await page.goto('/payment');
    await page
      .getByLabel(/超商取貨/)
      .first()
      .check();
    await page.getByLabel('取件人姓名').fill('王小茶');
    await page.getByLabel('手機號碼').fill('0912345678');
    await page.getByLabel('全家', { exact: true }).check();
    await pickStoreOnMap(page, '全家', '竹山', '全家 竹山大智店');
    await expect(page.getByTestId('order-total')).not.toHaveText('…');
    await page.getByRole('button', { name: '送出訂單並付款' }).click();
    await page.getByRole('button', { name: '付款', exact: true }).click();
    await expect(page.getByTestId('pay-outcome')).toHaveText('付款完成，謝謝您！');
    const orderNo = new URL(page.url()).searchParams.get('order')!;
    expect(await stockOf(page, 'oriental-beauty-pyramid-tea-bags', 'SL-TB-OB-12')).toBe(before - 1);

    const staffContext = await browser.newContext();
    await signInBrowser(staffContext, uniqueEmail('cvs-staff'), 'staff');
    const staff = await staffContext.newPage();
    await staff.goto(`/admin/orders/${orderNo}`);
    await staff.getByRole('button', { name: '開始備貨' }).click();
    await staff.getByRole('dialog').getByRole('button', { name: '開始備貨' }).click();
    // The order has moved (its page re-rendered) before the next action is opened: a dialog opened
    // during that re-render could be closed by it.
    await expect(staff.getByRole('button', { name: '開始備貨' })).toHaveCount(0);
    await staff.getByRole('button', { name: '出貨', exact: true }).click();
    await staff.getByRole('dialog').getByRole('button', { name: '建立物流單並出貨' }).click();
    await expect(staff.getByText('已建立綠界物流單並出貨').first()).toBeVisible();

    await staff.goto('/sandbox/ecpay/logistics/parcels');
    await staff
      .getByRole('listitem')
      .filter({ hasText: orderNo })
      .getByRole('button', { name: '未取件，退回中' })
      .click();
    await expect(staff.getByText('1|OK')).toBeVisible();
    await page.goto(`/member/orderTracking/${orderNo}`);
    await expect(page.getByRole('list', { name: '訂單進度' })).toContainText('買家逾期未取貨，包裹退回中');

    await staff.goto(`/admin/orders/${orderNo}`);
    await expect(staff.getByText('包裹退回').first()).toBeVisible();
    await staff.getByRole('button', { name: '退款' }).click();
    await staff.getByRole('dialog').getByLabel('退款原因').fill('買家未取件，包裹退回');
    await staff.getByRole('dialog').getByRole('button', { name: '確認退款' }).click();
    await expect(staff.getByText('已退款').first()).toBeVisible();
    expect(await stockOf(page, 'oriental-beauty-pyramid-tea-bags', 'SL-TB-OB-12')).toBe(before);
    await staffContext.close();
  });

  test('staff ship several store orders at once through ECPay and print their labels together', async ({
    browser,
  }) => {
    // Two cash-on-delivery store orders, placed through the API as the checkout does.
    const shopperContext = await browser.newContext();
    await signInBrowser(shopperContext, uniqueEmail('cvs-batch'));
    const api = shopperContext.request;
    const product = (await (await api.get('/api/catalog/products/ruby-cold-brew-tea-bags')).json()) as {
      variants: Array<{ id: string; sku: string }>;
    };
    const variantId = product.variants.find((v) => v.sku === 'SL-CB-RY-10')!.id;
    const orderNos: string[] = [];
    for (const [brand, storeId] of [
      ['7-ELEVEN', '158703'],
      ['FAMILY', '018234'],
    ] as const) {
      expect((await api.post('/api/cart/items', { data: { variantId, quantity: 1 } })).ok()).toBe(true);
      const map = (await (
        await api.post('/api/logistics/map', { data: { brand, returnTo: 'checkout' } })
      ).json()) as { action: string; fields: Record<string, string> };
      const page = await shopperContext.newPage();
      await page.goto('/payment');
      // Through the sandbox map's page, as a shopper would pick it.
      await page.evaluate((m) => {
        const f = document.createElement('form');
        f.method = 'POST';
        f.action = m.action;
        for (const [k, v] of Object.entries(m.fields))
          f.appendChild(
            Object.assign(document.createElement('input'), { type: 'hidden', name: k, value: v }),
          );
        document.body.appendChild(f);
        f.submit();
      }, map);
      await page.getByRole('searchbox').fill(storeId === '158703' ? '鹿谷' : '大智');
      await page.getByRole('button', { name: '搜尋' }).click();
      await page
        .getByRole('button', { name: /^選擇 / })
        .first()
        .click();
      await expect(page).toHaveURL('/payment');
      await page.close();
      const placed = await api.post('/api/orders', {
        data: {
          idempotencyKey: `batch-${Date.now()}-${brand}-0000`,
          shipping: { method: 'cvs', recipientName: '王小茶', phone: '0912345678', cvsBrand: brand, storeId },
          invoice: { type: 'member' },
          paymentMethod: 'cod',
        },
      });
      expect(placed.status(), await placed.text()).toBe(201);
      orderNos.push(((await placed.json()) as { order: { orderNo: string } }).order.orderNo);
    }

    const staffContext = await browser.newContext();
    await signInBrowser(staffContext, uniqueEmail('cvs-staff'), 'staff');
    const staff = await staffContext.newPage();
    await staff.goto('/admin/orders?status=processing&shipping=cvs');
    for (const no of orderNos) await staff.getByLabel(`選取 ${no}`).check();
    const bar = staff.getByRole('region', { name: '批次處理' });
    await bar.getByRole('button', { name: '以綠界物流出貨（2）' }).click();
    // Nothing is shipped before a confirmation that names the orders.
    const confirm = staff.getByRole('dialog', { name: '以綠界物流出貨：2 筆訂單' });
    for (const no of orderNos) await expect(confirm.getByText(no)).toBeVisible();
    await confirm.getByRole('button', { name: '以綠界物流出貨（2 筆）' }).click();
    await expect(staff.getByText('已建立 2 張綠界物流單並出貨。')).toBeVisible();
    for (const no of orderNos) {
      const detail = (await (await staffContext.request.get(`/api/admin/orders/${no}`)).json()) as {
        status: string;
        parcel: { logisticsId: string } | null;
      };
      expect(detail.status).toBe('shipped');
      expect(detail.parcel?.logisticsId).toBeTruthy();
    }

    await staff.goto('/admin/orders?status=shipped&shipping=cvs');
    for (const no of orderNos) await staff.getByLabel(`選取 ${no}`).check();
    const popups: Page[] = [];
    staff.context().on('page', (p) => popups.push(p));
    await staff.getByRole('region', { name: '批次處理' }).getByRole('button', { name: '列印寄件單' }).click();
    await expect.poll(() => popups.length).toBe(2);
    const texts = await Promise.all(
      popups.map(async (p) => (await p.waitForLoadState(), await p.textContent('body')) ?? ''),
    );
    expect(texts.join('')).toContain('7-ELEVEN 店到店寄件單');
    expect(texts.join('')).toContain('全家 店到店寄件單');
    await staffContext.close();
    await shopperContext.close();
  });
});
