import { expect, test, type APIRequestContext } from '@playwright/test';
import { uniqueEmail } from './support.ts';

/** Maintenance mode is switched by staff through the API, as the operations console will. */
async function setMaintenance(staff: APIRequestContext, origin: string, body: { enabled: boolean; endsAt?: string | null; message?: string }) {
  const res = await staff.post('/api/admin/maintenance', { data: body, headers: { origin } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { enabled: boolean; endsAt: string | null };
}

test.describe.configure({ mode: 'serial' });

test('maintenance mode sends shoppers to /maintenance, staff keep working, and turning it off restores the shop', async ({ page, playwright, browser, baseURL }) => {
  const origin = baseURL!;
  const staff = await playwright.request.newContext({ baseURL: origin });
  const signIn = await staff.post('/api/test/session', { data: { email: uniqueEmail('owner'), role: 'owner' } });
  expect(signIn.ok()).toBe(true);
  try {
    // Back at 2030/01/15 14:30 Taipei time.
    await setMaintenance(staff, origin, { enabled: true, endsAt: '2030-01-15T14:30:00+08:00', message: '系統升級中，預計下午恢復。' });

    await page.goto('/');
    await expect(page).toHaveURL(/\/maintenance$/);
    await expect(page.getByRole('heading', { level: 1, name: '系統維護中' })).toBeVisible();
    await expect(page.getByText('系統升級中，預計下午恢復。')).toBeVisible();
    await expect(page.getByTestId('maintenance-ends')).toContainText('2030/01/15 14:30');

    await page.goto('/faq');
    await expect(page).toHaveURL(/\/maintenance$/);

    const api = await page.request.get('/api/content/faq');
    expect(api.status()).toBe(503);
    expect(Number(api.headers()['retry-after'])).toBeGreaterThan(60);
    expect((await api.json()).error.code).toBe('maintenance');

    // Staff (the operations console) still work, pages and API alike (this one is the owner).
    const staffPage = await (await browser.newContext({ storageState: await staff.storageState() })).newPage();
    await staffPage.goto('/faq');
    await expect(staffPage).toHaveURL(/\/faq$/);
    await expect(staffPage.getByRole('heading', { level: 1, name: '常見問題' })).toBeVisible();
    expect((await staff.get('/api/content/faq')).status()).toBe(200);
    await staffPage.context().close();
  } finally {
    await setMaintenance(staff, origin, { enabled: false });
    await staff.dispose();
  }

  // Off again: the page the shopper is on says so, and the shop is back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '系統維護已完成' })).toBeVisible();
  await page.getByRole('link', { name: '回到首頁' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('marquee-track')).toBeVisible();
  await page.goto('/faq');
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole('heading', { level: 1, name: '常見問題' })).toBeVisible();
});
