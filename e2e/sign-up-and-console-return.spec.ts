import { expect, test } from './test.ts';
import { fillRegister } from './support.ts';

/**
 * Signing up behind an address many share, and staff finding their way back to the console
 * (docs/decisions/018-sign-up-limits-options-maintenance.md).
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('a first-time shopper behind an address many others share (carrier-grade NAT) still signs up', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.slow();
  // Twenty neighbours on the same mobile network sign up first, through the same address (this
  // run's browsers all reach the shop from 127.0.0.1; the whole run stays far below 60 in 10 minutes).
  const neighbours = await playwright.request.newContext({ baseURL });
  for (let i = 0; i < 20; i++) {
    const password = `鄰居第${i}位的烏龍茶密碼`;
    const res = await neighbours.post('/api/auth/register', {
      data: {
        displayName: '鄰居',
        email: `neighbour-${i}-${unique()}@example.com`,
        password,
        passwordConfirm: password,
        acceptTerms: true,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await neighbours.dispose();

  await page.goto('/register');
  await fillRegister(page, `first-time-${unique()}@example.com`, '第一次來買凍頂烏龍');
  await page.getByRole('button', { name: '註冊' }).click();
  await expect(page).toHaveURL('/member');
  await expect(page.getByText('嘗試次數過多')).toHaveCount(0);
});

test('the owner signs in from the console and is taken back to it; the member menu links to the console for staff only', async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = `owner-${unique()}@example.com`;
  const password = '店主的炭焙烏龍密碼';
  const setup = await playwright.request.newContext({ baseURL });
  expect(
    (
      await setup.post('/api/auth/register', {
        data: { displayName: '林店主', email, password, passwordConfirm: password, acceptTerms: true },
      })
    ).status(),
  ).toBe(201);
  // The account becomes the owner's (the test helper sets the role of an existing address).
  expect(
    (await setup.post('/api/test/session', { data: { email, role: 'owner', displayName: '林店主' } })).ok(),
  ).toBe(true);
  await setup.dispose();

  // Not signed in, the console sends the owner to sign in, remembering the way back.
  await page.goto('/admin/orders?status=paid');
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/admin/orders?status=paid')}`);
  await page.getByLabel('電子郵件').fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登入' }).click();
  await expect(page).toHaveURL('/admin/orders?status=paid');
  await expect(page.getByRole('heading', { level: 1, name: '訂單' })).toBeVisible();

  // From the storefront's member menu, back to the console.
  await page.goto('/member');
  const menu = page.getByRole('navigation', { name: '會員中心選單' });
  await menu.getByRole('link', { name: '管理後台' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: '總覽' })).toBeVisible();
});

test('a shopper’s member menu has no console link', async ({ page }) => {
  const email = `shopper-${unique()}@example.com`;
  await page.goto('/register');
  await fillRegister(page, email, '只是來買茶的顧客');
  await page.getByRole('button', { name: '註冊' }).click();
  await expect(page).toHaveURL('/member');
  const menu = page.getByRole('navigation', { name: '會員中心選單' });
  await expect(menu.getByRole('link', { name: '訂單查詢' })).toBeVisible();
  await expect(menu.getByRole('link', { name: '管理後台' })).toHaveCount(0);
});
