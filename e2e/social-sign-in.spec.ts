import type { Page } from '@playwright/test';
import { expect, test } from './test.ts';
import { waitForMail } from './mailbox.ts';
import { signInBrowser, uniqueEmail } from './support.ts';

/** On the sandbox provider's page: types a made-up person and allows the sign-in. */
async function allowAs(page: Page, who: { name: string; email?: string; verified?: boolean }) {
  await expect(page.getByRole('heading', { name: /（測試）$/ })).toBeVisible();
  await page.getByLabel('自行輸入：').check();
  await page.getByLabel('名稱').fill(who.name);
  if (who.email) await page.getByLabel('電子郵件（可留白）').fill(who.email);
  if (who.verified !== undefined)
    await page.getByRole('radio', { name: who.verified ? '已驗證' : '未驗證', exact: true }).check();
  await page.getByRole('button', { name: '允許並登入' }).click();
}

test.describe('signing in with LINE and Google (sandbox providers)', () => {
  test('a new member signs up with LINE, gives an address, comes back to where they were, and signs in with LINE again', async ({
    page,
  }) => {
    const email = uniqueEmail('line');
    await page.goto('/login?redirect=%2Fcart');
    const line = page.getByRole('link', { name: '使用 LINE 登入' });
    await expect(line).toBeVisible();
    await line.click();
    await allowAs(page, { name: '林雨晴', email });
    // LINE never vouches for an address: the person confirms it and verifies it by mail.
    await expect(page.getByRole('heading', { name: '輸入您的電子郵件' })).toBeVisible();
    await expect(page.getByLabel('電子郵件')).toHaveValue(email);
    await page.getByRole('button', { name: '建立會員帳號' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await waitForMail(email, '請驗證您的電子郵件');

    // Signing in again with the same LINE account goes straight in.
    await page.context().clearCookies();
    await page.goto('/login?redirect=%2Fmember');
    await page.getByRole('link', { name: '使用 LINE 登入' }).click();
    await allowAs(page, { name: '林雨晴', email });
    await expect(page).toHaveURL(/\/member$/);
    await expect(page.getByRole('heading', { name: /林雨晴/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: '登入方式' })).toBeVisible();
    // LINE is its only way in: unlinking it is not offered.
    await expect(page.getByRole('button', { name: '取消連結 LINE' })).toBeDisabled();
  });

  test('a new member signs up with Google from the sign-up page, then signs in with it again', async ({
    page,
  }) => {
    const email = uniqueEmail('google');
    await page.goto('/register');
    await page.getByRole('link', { name: '使用 Google 登入' }).click();
    await allowAs(page, { name: '王書華', email, verified: true });
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/member');
    await expect(page.getByRole('heading', { name: /王書華/ })).toBeVisible();
    await expect(page.getByText('已驗證', { exact: true })).toBeVisible();

    await page.context().clearCookies();
    await page.goto('/login?redirect=%2Fmember');
    await page.getByRole('link', { name: '使用 Google 登入' }).click();
    await allowAs(page, { name: '王書華', email, verified: true });
    await expect(page).toHaveURL(/\/member$/);
    await expect(page.getByRole('heading', { name: /王書華/ })).toBeVisible();
  });

  test('an address that belongs to someone else’s account does not sign in, and a wrong password links nothing', async ({
    page,
  }) => {
    const email = uniqueEmail('owner');
    const password = '山嵐茶事-owner-e2e-2026';
    const res = await page.request.post('/api/auth/register', {
      data: { displayName: '帳號主人', email, password, passwordConfirm: password, acceptTerms: true },
    });
    expect(res.status()).toBe(201);
    await page.context().clearCookies();

    await page.goto('/login');
    await page.getByRole('link', { name: '使用 Google 登入' }).click();
    await allowAs(page, { name: '冒名的人', email, verified: true });
    await expect(page.getByRole('heading', { name: '這個電子郵件已經是會員' })).toBeVisible();
    await expect(page.getByText(email).first()).toBeVisible();
    await page.getByLabel('密碼', { exact: true }).fill('not-their-password');
    await page.getByRole('button', { name: '登入並連結 Google' }).click();
    await expect(page.getByText('密碼不正確，請再試一次。')).toBeVisible();
    // Still nobody signed in: the member area sends to the sign-in page.
    await page.goto('/member');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fmember$/);
  });

  test('a signed-in member links LINE from 登入方式', async ({ page, context }) => {
    await signInBrowser(context, uniqueEmail('linker'));
    await page.goto('/member');
    await page.getByRole('link', { name: '連結 LINE' }).click();
    await allowAs(page, { name: '連結測試', email: uniqueEmail('line-link') });
    await expect(page).toHaveURL(/\/member\?social=linked$/);
    await expect(page.getByText('已新增登入方式。')).toBeVisible();
    await expect(page.getByRole('button', { name: '取消連結 LINE' })).toBeVisible();
  });
});
