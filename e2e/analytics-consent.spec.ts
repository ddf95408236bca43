import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { E2E_BASE_URL } from '../playwright.config.ts';
import { expect, test } from './test.ts';
import { signInBrowser, uniqueEmail } from './support.ts';

/**
 * No request leaves for a measurement provider before the visitor consents (docs/decisions/042).
 * The owner configures all three providers for this file only: it runs in a project of its own,
 * after the other browser tests (playwright.config.ts), so no other page meets the banner. Every
 * request to another host is recorded and aborted, so nothing actually goes out.
 */
const IDS = {
  ga4MeasurementId: 'G-E2ETEST42',
  metaPixelId: '123456789012345',
  lineTagId: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
};
const NONE = { ga4MeasurementId: '', metaPixelId: '', lineTagId: '' };
const PROVIDER_HOSTS =
  /(^|\.)(googletagmanager\.com|google-analytics\.com|analytics\.google\.com|facebook\.net|facebook\.com|line-scdn\.net|line\.me)$/;

test.describe.configure({ mode: 'serial' });

async function setIds(browser: Browser, ids: typeof IDS) {
  const owner = await browser.newContext({ baseURL: E2E_BASE_URL });
  await signInBrowser(owner, uniqueEmail('owner'), 'owner');
  const res = await owner.request.put('/api/admin/settings/analytics', {
    data: ids,
    headers: { origin: E2E_BASE_URL },
  });
  expect(res.status()).toBe(200);
  await owner.close();
}

/** Every request for another host, aborted; `providers` are those for the configured providers' hosts. */
async function watchThirdParties(context: BrowserContext) {
  const seen: Request[] = [];
  await context.route(
    (url) => url.origin !== new URL(E2E_BASE_URL).origin,
    async (route) => {
      seen.push(route.request());
      await route.abort('blockedbyclient');
    },
  );
  return {
    all: () => seen.map((r) => r.url()),
    providers: () => seen.map((r) => r.url()).filter((u) => PROVIDER_HOSTS.test(new URL(u).hostname)),
  };
}

/** A cash-on-delivery order of one tea, placed through the API by the signed-in member. */
async function placeOrder(page: Page): Promise<string> {
  const product = (await (await page.request.get('/api/catalog/products/dongding-oolong')).json()) as {
    variants: { id: string; stock: number }[];
  };
  const variant = product.variants.find((v) => v.stock > 0)!;
  const headers = { origin: E2E_BASE_URL };
  expect(
    (
      await page.request.post('/api/cart/items', { data: { variantId: variant.id, quantity: 1 }, headers })
    ).ok(),
  ).toBe(true);
  const res = await page.request.post('/api/orders', {
    headers,
    data: {
      idempotencyKey: `consent-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
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
  expect(res.status()).toBe(201);
  return ((await res.json()) as { order: { orderNo: string } }).order.orderNo;
}

/** What the page handed each provider's queue (the scripts themselves never arrive). */
const queued = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as {
      dataLayer?: IArguments[];
      fbq?: { queue?: unknown[][] };
      _ltq?: IArguments[];
    };
    return {
      ga4Purchases: (w.dataLayer ?? []).filter((a) => a[0] === 'event' && a[1] === 'purchase').length,
      ga4Purchase: (w.dataLayer ?? []).find((a) => a[0] === 'event' && a[1] === 'purchase')?.[2] as
        { transaction_id: string; currency: string; value: number } | undefined,
      metaPurchases: (w.fbq?.queue ?? []).filter((a) => a[0] === 'track' && a[1] === 'Purchase').length,
      linePurchases: (w._ltq ?? []).filter(
        (a) => a[0] === 'send' && a[1] === 'cv' && (a[2] as { type?: string }).type === 'Conversion',
      ).length,
      providersDefined: 'gtag' in window || 'fbq' in window || '_lt' in window,
    };
  });

test.beforeAll(async ({ browser }) => setIds(browser, IDS));
test.afterAll(async ({ browser }) => setIds(browser, NONE));

test('nothing goes to a provider before consent; after 全部接受 the scripts load and a purchase is sent once', async ({
  page,
  context,
}) => {
  const third = await watchThirdParties(context);
  await signInBrowser(context);
  const orderNo = await placeOrder(page);

  // The page policy names the configured providers' hosts, and only because they are configured.
  const res = await page.goto('/');
  expect(res?.headers()['content-security-policy']).toContain('https://connect.facebook.net');
  const banner = page.getByRole('region', { name: '我們使用 Cookie' });
  await expect(banner).toBeVisible();
  // An overlay at the bottom: appearing after hydration, it moves nothing on the page.
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[];
          resolve(entries.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0));
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(0), 500);
      }),
  );
  expect(shift).toBeLessThanOrEqual(0.02);
  // Refusing weighs as much as accepting: same size, side by side.
  const accept = banner.getByRole('button', { name: '全部接受' });
  const refuse = banner.getByRole('button', { name: '僅必要' });
  const [a, r] = [(await accept.boundingBox())!, (await refuse.boundingBox())!];
  expect(Math.abs(a.width - r.width)).toBeLessThan(1);
  expect(a.height).toBe(r.height);
  // A product page and the completion page too, still without a choice: nothing leaves.
  await page.goto('/mall/dongding-oolong');
  await page.goto(`/payComplete?order=${orderNo}`);
  await expect(page.getByTestId('pay-outcome')).toBeVisible();
  await page.mouse.wheel(0, 3000);
  await page.waitForTimeout(500);
  expect(third.all()).toEqual([]);
  expect((await queued(page)).providersDefined).toBe(false);

  await page
    .getByRole('region', { name: '我們使用 Cookie' })
    .getByRole('button', { name: '全部接受' })
    .click();
  await expect(page.getByRole('region', { name: '我們使用 Cookie' })).toBeHidden();
  await expect
    .poll(() => third.providers().map((u) => `${new URL(u).host}${new URL(u).pathname}`))
    .toEqual(
      expect.arrayContaining([
        'www.googletagmanager.com/gtag/js',
        'connect.facebook.net/en_US/fbevents.js',
        'd.line-scdn.net/n/line_tag/public/release/v1/lt.js',
      ]),
    );
  expect(third.providers().find((u) => u.includes('gtag/js'))).toContain('id=G-E2ETEST42');
  // The purchase seen before the choice was not sent after it.
  expect((await queued(page)).ga4Purchases).toBe(0);

  // With the choice stored, the completion page sends the purchase to each provider, once.
  await page.goto(`/payComplete?order=${orderNo}`);
  await expect.poll(async () => (await queued(page)).ga4Purchases).toBe(1);
  const sent = await queued(page);
  expect(sent.ga4Purchase).toMatchObject({ transaction_id: orderNo, currency: 'TWD' });
  expect(Number.isInteger(sent.ga4Purchase?.value)).toBe(true);
  expect(sent.metaPurchases).toBe(1);
  expect(sent.linePurchases).toBe(1);

  // A reload of the completion page sends nothing again.
  await page.reload();
  await expect(page.getByTestId('pay-outcome')).toBeVisible();
  await expect.poll(async () => (await queued(page)).providersDefined).toBe(true);
  await page.waitForTimeout(500);
  const again = await queued(page);
  expect([again.ga4Purchases, again.metaPurchases, again.linePurchases]).toEqual([0, 0, 0]);

  // Withdrawing: the page reloads without the providers, and nothing asks them again.
  await page.mouse.wheel(0, 4000);
  const settings = page.getByRole('region', { name: 'Cookie 設定' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Cookie 設定' }).click();
    await expect(settings).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(settings.getByRole('checkbox', { name: /分析/ })).toBeChecked();
  await settings.getByRole('checkbox', { name: /分析/ }).uncheck();
  await settings.getByRole('checkbox', { name: /行銷/ }).uncheck();
  const asked = third.providers().length;
  await Promise.all([
    page.waitForEvent('load'),
    settings.getByRole('button', { name: '儲存我的選擇' }).click(),
  ]);
  await expect(page.getByTestId('pay-outcome')).toBeVisible();
  await page.goto('/mall/dongding-oolong');
  await page.waitForTimeout(500);
  expect(third.providers().length).toBe(asked);
  expect((await queued(page)).providersDefined).toBe(false);
});

test('僅必要 keeps every provider off, on this page and the next ones', async ({ page, context }) => {
  const third = await watchThirdParties(context);
  await page.goto('/');
  await page.getByRole('region', { name: '我們使用 Cookie' }).getByRole('button', { name: '僅必要' }).click();
  await expect(page.getByRole('region', { name: '我們使用 Cookie' })).toBeHidden();
  await page.goto('/home');
  await page.reload();
  // The choice holds: no banner again, and not one request for another host.
  await page.waitForTimeout(500);
  await expect(page.getByRole('region', { name: '我們使用 Cookie' })).toHaveCount(0);
  expect(third.all()).toEqual([]);
  expect((await queued(page)).providersDefined).toBe(false);

  // The footer's 「Cookie 設定」 opens the choice again, as it was left.
  // The footer's part hydrates once its code arrives (fetched at the first scroll).
  await page.mouse.wheel(0, 4000);
  const settings = page.getByRole('region', { name: 'Cookie 設定' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Cookie 設定' }).click();
    await expect(settings).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(settings.getByRole('checkbox', { name: /分析/ })).not.toBeChecked();
  await expect(settings.getByRole('checkbox', { name: /行銷/ })).not.toBeChecked();
  expect(third.all()).toEqual([]);
});
