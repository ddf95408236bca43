import { expect, test } from './test.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { signInBrowser, uniqueEmail } from './support.ts';

/** Maintenance mode is switched by the owner through the API, as the operations console does. */
async function setMaintenance(
  staff: APIRequestContext,
  origin: string,
  body: { enabled: boolean; endsAt?: string | null; message?: string },
) {
  const res = await staff.post('/api/admin/maintenance', { data: body, headers: { origin } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { enabled: boolean; endsAt: string | null };
}

/** The calm maintenance page: what is happening, when it ends, how to reach the shop; no shop links. */
async function expectMaintenancePage(page: Page, message: string) {
  await expect(page.getByRole('heading', { level: 1, name: '系統維護中' })).toBeVisible();
  await expect(page.getByText(message)).toBeVisible();
  await expect(page.getByTestId('maintenance-ends')).toContainText('2030/01/15 14:30');
  await expect(page.getByRole('navigation')).toHaveCount(0);
  const links = await page.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(links).toEqual(['mailto:service@shanlan-tea.example', 'tel:0492751987']);
}

test.describe.configure({ mode: 'serial' });

test('maintenance mode answers shoppers’ pages with 503 and a calm page where they are, staff keep working, and turning it off restores the shop', async ({
  page,
  playwright,
  browser,
  baseURL,
}) => {
  const origin = baseURL!;
  const staff = await playwright.request.newContext({ baseURL: origin });
  const signIn = await staff.post('/api/test/session', {
    data: { email: uniqueEmail('owner'), role: 'owner' },
  });
  expect(signIn.ok()).toBe(true);
  try {
    // Back at 2030/01/15 14:30 Taipei time.
    await setMaintenance(staff, origin, {
      enabled: true,
      endsAt: '2030-01-15T14:30:00+08:00',
      message: '系統升級中，預計下午恢復。',
    });

    const home = await page.goto('/');
    expect(home?.status()).toBe(503);
    expect(Number(home?.headers()['retry-after'])).toBeGreaterThan(60);
    await expect(page).toHaveURL(/\/$/);
    await expectMaintenancePage(page, '系統升級中，預計下午恢復。');

    const faq = await page.goto('/faq');
    expect(faq?.status()).toBe(503);
    await expect(page).toHaveURL(/\/faq$/);

    const api = await page.request.get('/api/content/faq');
    expect(api.status()).toBe(503);
    expect(Number(api.headers()['retry-after'])).toBeGreaterThan(60);
    expect((await api.json()).error.code).toBe('maintenance');

    // Staff (the operations console) still work, pages and API alike (this one is the owner).
    const staffPage = await (
      await browser.newContext({ storageState: await staff.storageState() })
    ).newPage();
    await staffPage.goto('/faq');
    await expect(staffPage).toHaveURL(/\/faq$/);
    await expect(staffPage.getByRole('heading', { level: 1, name: '常見問題' })).toBeVisible();
    expect((await staff.get('/api/content/faq')).status()).toBe(200);
    await staffPage.context().close();
  } finally {
    await setMaintenance(staff, origin, { enabled: false });
    await staff.dispose();
  }

  // Off again: the page the shopper asked for comes back at the same address.
  await page.reload();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole('heading', { level: 1, name: '常見問題' })).toBeVisible();
});

test('switching maintenance on moves pages that are already open: a member’s at once, a visitor’s at its next check', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const origin = baseURL!;
  // A member browsing the mall, signed in: their page has a live-update stream.
  const memberContext = await browser.newContext();
  await signInBrowser(memberContext, uniqueEmail('member'));
  const member = await memberContext.newPage();
  await member.goto('/mall');
  await expect(member.getByRole('heading', { level: 1 })).toBeVisible();
  // A visitor who is not signed in, on the front page.
  await page.goto('/');
  await expect(page.getByTestId('marquee-track')).toBeVisible();
  // Let the member's stream open before the switch.
  await member.waitForTimeout(1000);

  const staff = await playwright.request.newContext({ baseURL: origin });
  expect(
    (await staff.post('/api/test/session', { data: { email: uniqueEmail('owner'), role: 'owner' } })).ok(),
  ).toBe(true);
  try {
    await setMaintenance(staff, origin, {
      enabled: true,
      endsAt: '2030-01-15T14:30:00+08:00',
      message: '盤點中，稍後見。',
    });

    // The member's page gives way without a click (and remembers where it was: `next`).
    await expect(member).toHaveURL(/\/maintenance\?next=%2Fmall$/, { timeout: 5_000 });
    await expectMaintenancePage(member, '盤點中，稍後見。');

    // The visitor's page learns at its next new-build check (every minute, and when the tab regains focus).
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect(page).toHaveURL(/\/maintenance\?next=%2F$/, { timeout: 5_000 });
    await expectMaintenancePage(page, '盤點中，稍後見。');
  } finally {
    await setMaintenance(staff, origin, { enabled: false });
    await staff.dispose();
  }

  // Over: the page the member was on comes back; the maintenance address itself says so and leads
  // back to the shop.
  await member.reload();
  await expect(member).toHaveURL(/\/mall$/);
  await member.goto('/maintenance');
  await expect(member.getByRole('heading', { level: 1, name: '系統維護已完成' })).toBeVisible();
  await member.getByRole('link', { name: '回到首頁' }).click();
  await expect(member).toHaveURL(/\/$/);
  await expect(member.getByTestId('marquee-track')).toBeVisible();
  await memberContext.close();
});

test('n10: a page moved aside for maintenance comes back by itself, and a visitor cannot click past it', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const origin = baseURL!;
  const memberContext = await browser.newContext();
  await signInBrowser(memberContext, uniqueEmail('member'));
  const member = await memberContext.newPage();
  await member.goto('/mall?category=tea');
  await expect(member.getByRole('heading', { level: 1 })).toBeVisible();
  // A visitor who read the FAQ a moment ago (the page keeps what it fetched) and went on to the front page.
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1, name: '常見問題' })).toBeVisible();
  await page
    .getByRole('banner')
    .getByRole('link', { name: /山嵐茶事/ })
    .first()
    .click();
  await expect(page.getByTestId('marquee-track')).toBeVisible();
  await member.waitForTimeout(1000);

  const staff = await playwright.request.newContext({ baseURL: origin });
  expect(
    (await staff.post('/api/test/session', { data: { email: uniqueEmail('owner'), role: 'owner' } })).ok(),
  ).toBe(true);
  try {
    await setMaintenance(staff, origin, {
      enabled: true,
      endsAt: '2030-01-15T14:30:00+08:00',
      message: '盤點中。',
    });

    // The member's page gives way, and the page's own refresh goes back to where they were.
    await expect(member.getByRole('heading', { level: 1, name: '系統維護中' })).toBeVisible({
      timeout: 5_000,
    });
    await expect(member.locator('meta[http-equiv="refresh"]')).toHaveAttribute(
      'content',
      '60;url=/mall?category=tea',
    );

    // The visitor's open page: a click on a content page leads to the maintenance page, not the content.
    await page.getByRole('banner').getByRole('link', { name: '常見問題' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '系統維護中' })).toBeVisible({ timeout: 5_000 });
    await expect(page.getByRole('heading', { level: 1, name: '常見問題' })).toHaveCount(0);
  } finally {
    await setMaintenance(staff, origin, { enabled: false });
    await staff.dispose();
  }

  // Over: loading the page again shows what the member was looking at.
  await member.reload();
  await expect(member).toHaveURL(/\/mall\?category=tea$/);
  await expect(member.getByRole('heading', { level: 1, name: '茶葉' })).toBeVisible();
  await memberContext.close();
});
