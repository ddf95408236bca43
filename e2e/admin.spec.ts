import sharp from 'sharp';
import { expect, test } from './test.ts';
import { signInBrowser, uniqueEmail } from './support.ts';

test.describe('the operations console', () => {
  test('an owner adds a product with a picture, a shopper buys it, staff ship it and the shopper’s tracking page updates live', async ({
    browser,
  }) => {
    test.slow();
    const n = Date.now().toString(36);
    const slug = `e2e-sampler-${n}`;
    const sku = `E2E-${n.toUpperCase()}`;
    const name = `冬茶試飲包 ${n}`;

    // The owner creates the product in the console.
    const ownerContext = await browser.newContext();
    await signInBrowser(ownerContext, uniqueEmail('owner'), 'owner');
    const owner = await ownerContext.newPage();
    await owner.goto('/admin/products/new');
    await expect(owner.getByRole('heading', { level: 1, name: '新增商品' })).toBeVisible();
    await owner.getByLabel('商品名稱').fill(name);
    await owner.getByLabel('網址代碼').fill(slug);
    await owner.getByLabel('分類').selectOption({ index: 1 });
    await owner.getByLabel('狀態').selectOption({ label: '上架中' });
    await owner.getByLabel('摘要').fill('三款冬茶各 10 g，一次比較清香與焙火。');
    await owner.getByLabel('第 1 個規格的 SKU').fill(sku);
    await owner.getByRole('button', { name: '＋ 新增選項' }).click();
    await owner.getByLabel('第 1 個選項的名稱').fill('規格');
    await owner.getByLabel('規格的第 1 個內容').fill('30 g');
    await owner.getByLabel('第 1 個規格的規格').selectOption('30 g');
    await owner.getByLabel('第 1 個規格的售價').fill('360');
    await owner.getByLabel('第 1 個規格的初始庫存').fill('5');
    const picture = await sharp({ create: { width: 640, height: 800, channels: 3, background: '#6b8f71' } })
      .png()
      .toBuffer();
    await owner
      .getByLabel('上傳圖片')
      .setInputFiles({ name: 'sampler.png', mimeType: 'image/png', buffer: picture });
    await expect(owner.getByLabel('第 1 張的圖片說明（替代文字）')).toHaveValue(name);
    await owner.getByRole('button', { name: '建立商品' }).first().click();
    await expect(owner).toHaveURL(/\/admin\/products\/[0-9a-f-]{36}$/);
    await expect(owner.getByText(`已新增「${name}」。`)).toBeVisible();

    // A shopper finds it in the mall, with its picture, and orders it (cash on delivery).
    const shopperContext = await browser.newContext();
    await signInBrowser(shopperContext, uniqueEmail('buyer'));
    const shopper = await shopperContext.newPage();
    await shopper.goto(`/mall/${slug}`);
    await expect(shopper.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(shopper.locator(`img[src*="uploads"]`).first()).toBeVisible();
    await shopper.getByRole('button', { name: '加入購物車' }).click();
    await expect(shopper.getByText(/已加入購物車/)).toBeVisible();
    await shopper.goto('/payment');
    await shopper.getByLabel('收件人姓名').fill('王小茶');
    await shopper.getByLabel('手機號碼').fill('0912345678');
    await shopper.getByLabel('縣市').selectOption('南投縣');
    await shopper.getByLabel('鄉鎮市區').selectOption('鹿谷鄉');
    await shopper.getByLabel('地址', { exact: true }).fill('興產路 87 號');
    await shopper.getByLabel(/貨到付款/).check();
    await shopper.getByRole('button', { name: '送出訂單' }).click();
    await expect(shopper.getByTestId('pay-outcome')).toHaveText('訂單已成立');
    const orderNo = new URL(shopper.url()).searchParams.get('order')!;
    await shopper.goto(`/member/orderTracking/${orderNo}`);
    const timeline = shopper.getByRole('list', { name: '訂單進度' });
    await expect(timeline).toContainText('備貨中');
    const loads: string[] = [];
    shopper.on('framenavigated', (f) => f === shopper.mainFrame() && loads.push(f.url()));

    // Staff ship it from the order page with a tracking number.
    const staffContext = await browser.newContext();
    await signInBrowser(staffContext, uniqueEmail('staff'), 'staff');
    const staff = await staffContext.newPage();
    await staff.goto(`/admin/orders?q=${orderNo}`);
    await staff.getByRole('link', { name: orderNo }).click();
    await expect(staff.getByRole('heading', { level: 1 })).toContainText(orderNo);
    await expect(staff.getByRole('main')).toContainText(sku);
    await staff.getByRole('button', { name: '出貨', exact: true }).click();
    const dialog = staff.getByRole('dialog');
    await dialog.getByLabel('物流業者').selectOption('黑貓宅急便');
    await dialog.getByLabel('追蹤編號').fill('9055-1234-7788');
    await dialog.getByRole('button', { name: '確認出貨' }).click();
    await expect(dialog).toBeHidden();
    await expect(staff.getByText('已出貨').first()).toBeVisible();

    // The shopper's open page shows it without a reload.
    await expect(timeline).toContainText('已建立出貨單');
    await expect(shopper.getByText('9055-1234-7788').first()).toBeVisible();
    expect(loads).toEqual([]);

    // The packing slip for the box: the items, the tracking number and what the carrier collects.
    await staff.getByRole('link', { name: '列印出貨單' }).click();
    const slip = staff.locator('#packing-slip');
    await expect(slip).toContainText(sku);
    await expect(slip).toContainText('9055-1234-7788');
    await expect(slip.getByText('貨到付款・代收金額')).toBeVisible();

    await Promise.all([ownerContext.close(), shopperContext.close(), staffContext.close()]);
  });

  test('a shopper who opens /admin is told the account has no access, and a viewer sees no write buttons', async ({
    browser,
  }) => {
    const shopperContext = await browser.newContext();
    await signInBrowser(shopperContext, uniqueEmail('curious'));
    const shopper = await shopperContext.newPage();
    await shopper.goto('/admin/products');
    await expect(shopper.getByText('這個帳號沒有管理後台的權限')).toBeVisible();

    const viewerContext = await browser.newContext();
    await signInBrowser(viewerContext, uniqueEmail('viewer'), 'viewer');
    const viewer = await viewerContext.newPage();
    await viewer.goto('/admin');
    await expect(viewer.getByRole('heading', { level: 1, name: '總覽' })).toBeVisible();
    await expect(viewer.getByText('今日營業額')).toBeVisible();
    const nav = viewer.getByRole('navigation', { name: '管理後台選單' });
    await expect(nav.getByRole('link', { name: '訂單' })).toBeVisible();
    await expect(nav.getByRole('link', { name: '操作紀錄' })).toHaveCount(0);
    await viewer.goto('/admin/products');
    await expect(viewer.getByRole('heading', { level: 1, name: '商品' })).toBeVisible();
    await expect(viewer.getByRole('link', { name: '新增商品' })).toHaveCount(0);
    await viewer.goto('/admin/audit');
    await expect(viewer.getByText('您的角色沒有權限開啟這個頁面')).toBeVisible();
    await Promise.all([shopperContext.close(), viewerContext.close()]);
  });
});
