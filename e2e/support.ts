import { expect, type BrowserContext, type Page } from '@playwright/test';

/** A phone's viewport, as the shop is checked at (390 px wide). */
export const PHONE = { width: 390, height: 844 };

/** Signs the browser in through the test-only helper (exists only under NODE_ENV=test). */
export const uniqueEmail = (prefix = 'e2e') =>
  `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export async function signInBrowser(
  context: BrowserContext,
  email = uniqueEmail(),
  role: 'customer' | 'owner' | 'staff' | 'viewer' = 'customer',
) {
  const res = await context.request.post('/api/test/session', { data: { email, role } });
  if (!res.ok()) throw new Error(`test sign-in failed: ${res.status()}`);
  return (await res.json()) as { user: { uid: string; email: string } };
}

/** Counts full document loads of the page (initial load and every reload). */
export function countDocumentLoads(page: Page): { readonly count: number; urls: string[] } {
  const state = { count: 0, urls: [] as string[] };
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      state.count += 1;
      state.urls.push(request.url());
    }
  });
  return state;
}

/** A product variant's stock as the shop tells it. */
export async function stockOf(page: Page, slug: string, sku: string): Promise<number> {
  const res = await page.request.get(`/api/catalog/products/${slug}`);
  const product = (await res.json()) as { variants: Array<{ sku: string; stock: number }> };
  return product.variants.find((v) => v.sku === sku)!.stock;
}

/** Puts one of a product (a variant, when named) into the cart from its page. */
export async function addToCart(page: Page, slug: string, variant?: string) {
  await page.goto(`/mall/${slug}`);
  if (variant) await page.getByRole('radio', { name: variant }).click();
  // On a phone the buy bar at the bottom repeats the button until the page's own is in view: the first is the page's.
  await page.getByRole('button', { name: '加入購物車' }).first().click();
  await expect(page.getByText(/已加入購物車/)).toBeVisible();
}

/** An order's status as its buyer sees it. */
export async function orderStatus(page: Page, orderNo: string): Promise<string> {
  return ((await (await page.request.get(`/api/orders/${orderNo}`)).json()) as { status: string }).status;
}

/** Picks a store on the (sandbox) store map from the checkout or the address book; the map sends the page back. */
export async function pickStoreOnMap(page: Page, chain: string, query: string, store: string) {
  await page.getByRole('button', { name: `開啟 ${chain} 門市地圖` }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^${chain} 電子地圖`) })).toBeVisible();
  await page.getByRole('searchbox').fill(query);
  await page.getByRole('button', { name: '搜尋' }).click();
  await page.getByRole('button', { name: `選擇 ${store}` }).click();
  // Back on the shop's page with the store shown: a click before then would land on the map page or a form still being restored.
  await expect(page).not.toHaveURL(/\/sandbox\//);
  await expect(page.getByText(store).first()).toBeVisible();
}

/** Fills the sign-up form as a new shopper does. */
export async function fillRegister(page: Page, email: string, password: string) {
  await page.getByLabel('會員名稱').fill('王小茶');
  await page.getByLabel('電子郵件').fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByLabel('確認密碼').fill(password);
  await page.getByLabel(/我已閱讀並同意/).check();
}

/** Fills the checkout's home-delivery address with a recipient in 南投縣鹿谷鄉. */
export async function fillHomeAddress(page: Page) {
  await page.getByLabel('收件人姓名').fill('王小茶');
  await page.getByLabel('手機號碼').fill('0912345678');
  await page.getByLabel('縣市').selectOption('南投縣');
  await page.getByLabel('鄉鎮市區').selectOption('鹿谷鄉');
  await page.getByLabel('地址', { exact: true }).fill('興產路 87 號');
}
