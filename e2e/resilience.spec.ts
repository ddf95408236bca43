import { expect, test } from './test.ts';
import type { APIRequest, Page } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.ts';
import { countDocumentLoads, signInBrowser, uniqueEmail } from './support.ts';

const NEW_PASSWORD = '山嵐茶事-reset-2026';

/** Ends every session of the account from somewhere else, the way a password reset by mail does. */
async function resetPasswordElsewhere(request: APIRequest, baseURL: string, email: string): Promise<void> {
  const other = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  try {
    const asked = Date.now();
    expect((await other.post('/api/auth/forgot-password', { data: { email } })).ok()).toBe(true);
    const code = new URL(
      linkIn(await waitForMail(email, '重設您的密碼', { after: asked - 1000 })),
    ).searchParams.get('code');
    const reset = await other.post('/api/auth/reset-password', {
      data: { code, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD },
    });
    expect(reset.ok(), await reset.text()).toBe(true);
  } finally {
    await other.dispose();
  }
}

/** Makes the shop look as if a newer build were deployed, and asks the page to check for it now. */
async function announceNewBuild(page: Page): Promise<void> {
  await page.route(/\/build-manifest\.json\?t=\d+$/, (route) =>
    route.fulfill({ json: { buildId: 'a-newer-build', builtAt: new Date().toISOString() } }),
  );
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
}

test.describe('what a person did is not lost when parts fail', () => {
  test('a tab whose session was ended elsewhere goes to sign-in, and back to where it was afterwards', async ({
    page,
    context,
    playwright,
    baseURL,
  }) => {
    const email = uniqueEmail('revoked');
    await signInBrowser(context, email);
    await page.goto('/member');
    await expect(page.getByRole('navigation', { name: '會員中心選單' })).toBeVisible();

    await resetPasswordElsewhere(playwright.request, baseURL!, email);

    // The tab opens the member home again (a reload, or the browser restoring it): the server
    // no longer knows the session, so the tab must end at sign-in, not on an empty member page.
    await page.reload();
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/member')}`);
    await expect(page.getByRole('heading', { level: 1, name: '會員登入' })).toBeVisible();

    await page.getByLabel('電子郵件').fill(email);
    await page.getByLabel('密碼', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: '登入' }).click();
    await expect(page).toHaveURL('/member');
  });

  test('a form whose submit was refused stays protected from the new-build reload until it is really sent', async ({
    page,
  }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: '聯絡我們' })).toBeVisible();
    const shownAt = Date.now();
    await page.getByLabel('姓名').fill('林小茶');
    await page.getByLabel('電子郵件').fill('lin@example.com');
    await page.getByLabel('訊息內容').fill('想詢問凍頂烏龍的企業禮盒，大約 40 盒，能否在月底前出貨？');
    const loads = countDocumentLoads(page);

    // Refused in the browser: the consent box is not ticked.
    await page.getByRole('button', { name: '送出' }).click();
    await expect(page.getByText(/隱私權政策/).first()).toBeVisible();
    await announceNewBuild(page);
    await page.waitForTimeout(1000);
    expect(loads.count).toBe(0);
    await expect(page.getByLabel('訊息內容')).toHaveValue(/企業禮盒/);

    // Refused by the server (it is away): still protected.
    await page.getByRole('checkbox').check();
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 503,
        json: { error: { code: 'internal-error', message: '伺服器暫時無法回應，請稍後再試。' } },
      }),
    );
    await page.getByRole('button', { name: '送出' }).click();
    await expect(page.getByRole('alert').filter({ hasText: '伺服器暫時無法回應' })).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForTimeout(1000);
    expect(loads.count).toBe(0);
    await expect(page.getByLabel('訊息內容')).toHaveValue(/企業禮盒/);

    // Really sent: nothing is left to lose, so the waiting build loads at the next check.
    await page.unroute('**/api/contact');
    // A person takes a few seconds; the server turns away forms sent faster than 3 s (a fast
    // machine got here in under 3 s and was refused as a bot).
    await page.waitForTimeout(Math.max(0, 3300 - (Date.now() - shownAt)));
    await page.getByRole('button', { name: '送出' }).click();
    await expect(page.getByTestId('contact-reference')).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => loads.count).toBe(1);
  });

  test('a page that crashes in the browser is not called a server error', async ({ page }) => {
    // An answer the page cannot handle makes its code throw while rendering.
    // The page is opened from another one, so its data is asked for by the browser (a first
    // visit would arrive rendered by the server, with the real answer).
    await page.route('**/api/content/faq', (route) => route.fulfill({ json: { entries: 5 } }));
    await page.goto('/shipping');
    await page.getByRole('contentinfo').getByRole('link', { name: '常見問題' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '發生錯誤' })).toBeVisible();
    await expect(page.getByTestId('error-status')).toHaveCount(0);
    await expect(page.getByText('Internal Server Error')).toHaveCount(0);
    await expect(page.getByText('500')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '重新載入' })).toBeVisible();
  });

  test('a picture the storage could not serve for a moment is fetched again with backoff', async ({
    page,
  }) => {
    // The storage answers 503 twice for every picture on the page (the database away for a moment).
    const refused = new Map<string, number>();
    await page.route('**/api/storage/**', (route) => {
      const request = route.request();
      const url = request.url();
      const n = refused.get(url) ?? 0;
      if (request.method() === 'GET' && n < 2) {
        refused.set(url, n + 1);
        return route.fulfill({
          status: 503,
          json: { error: { code: 'unavailable', message: '資料庫暫時無法連線，請稍後再試。' } },
        });
      }
      return route.continue();
    });
    await page.goto('/team');
    const portrait = page.getByRole('main').getByRole('img').first();
    await portrait.scrollIntoViewIfNeeded();
    await expect
      .poll(() => portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(Math.max(...refused.values())).toBe(2);
  });
});
