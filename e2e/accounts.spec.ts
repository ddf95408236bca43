import { expect, test, type Page } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.ts';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function fillRegister(page: Page, email: string, password: string) {
  await page.getByLabel('會員名稱').fill('王小茶');
  await page.getByLabel('電子郵件').fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByLabel('確認密碼').fill(password);
  await page.getByLabel(/我已閱讀並同意/).check();
}

test.describe('accounts in a real browser', () => {
  test('register, verify by mail, sign out, sign in, reset the password by mail; the old session and password stop working', async ({ page, browser }) => {
    // Three browsers and five password hashes (argon2id, on purpose slow): room for a busy CI machine.
    test.slow();
    const email = `member-${unique()}@example.com`;
    const first = '清晨的第一泡烏龍';
    const second = '午後再焙一次炭火烏龍';

    await page.goto('/register');
    await fillRegister(page, email, first);
    await page.getByRole('button', { name: '註冊' }).click();
    await expect(page).toHaveURL('/member');
    await expect(page.getByText('您的電子郵件尚未驗證')).toBeVisible();

    const verification = await waitForMail(email, '請驗證您的電子郵件');
    expect(verification.text).toContain('王小茶 您好');
    await page.goto(linkIn(verification));
    await expect(page.getByRole('heading', { name: '電子郵件驗證完成' })).toBeVisible();
    await page.goto('/member');
    await expect(page.getByText('您的電子郵件尚未驗證')).toHaveCount(0);

    // Sign out, then back in.
    await page.getByRole('button', { name: '登出' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('link', { name: '登入' })).toBeVisible();
    await page.goto('/member/orderList');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await page.getByLabel('電子郵件').fill(email);
    await page.getByLabel('密碼', { exact: true }).fill(first);
    await page.getByRole('button', { name: '登入' }).click();
    await expect(page).toHaveURL('/member/orderList');

    // A second device stays signed in with the old password's session.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto('/login');
    await otherPage.getByLabel('電子郵件').fill(email);
    await otherPage.getByLabel('密碼', { exact: true }).fill(first);
    await otherPage.getByRole('button', { name: '登入' }).click();
    await expect(otherPage).toHaveURL('/');

    // Forgot password, from a signed-out browser.
    const resetter = await browser.newContext();
    const resetPage = await resetter.newPage();
    const asked = Date.now();
    await resetPage.goto('/forgetPassword');
    await resetPage.getByLabel('電子郵件').fill(email);
    await resetPage.getByRole('button', { name: '寄送重設密碼信' }).click();
    await expect(resetPage).toHaveURL('/forgetPasswordConfirm');
    await expect(resetPage.getByText(email)).toBeVisible();
    const resetMail = await waitForMail(email, '重設您的密碼', { after: asked - 1000 });
    await resetPage.goto(linkIn(resetMail));
    await expect(resetPage.getByRole('heading', { name: '設定新密碼' })).toBeVisible();
    await resetPage.getByLabel('新密碼').fill(second);
    await resetPage.getByLabel('確認密碼').fill(second);
    await resetPage.getByRole('button', { name: '儲存新密碼' }).click();
    await expect(resetPage).toHaveURL('/resetPasswordSuccess');
    await expect(await waitForMail(email, '您的密碼已經變更')).toBeTruthy();

    // The old sessions are gone: the other device is sent to sign in.
    await otherPage.goto('/member');
    await expect.poll(async () => (await otherPage.request.get('/api/auth/me')).json()).toEqual({ user: null });
    await page.reload();
    await expect.poll(async () => (await page.request.get('/api/auth/me')).json()).toEqual({ user: null });

    // The old password no longer works; the new one does.
    await resetPage.goto('/login');
    await resetPage.getByLabel('電子郵件').fill(email);
    await resetPage.getByLabel('密碼', { exact: true }).fill(first);
    await resetPage.getByRole('button', { name: '登入' }).click();
    await expect(resetPage.getByRole('alert').filter({ hasText: '電子郵件或密碼不正確' })).toBeVisible();
    await resetPage.getByLabel('密碼', { exact: true }).fill(second);
    await resetPage.getByRole('button', { name: '登入' }).click();
    await expect(resetPage).toHaveURL('/');
    await expect(resetPage.getByRole('link', { name: '會員中心' })).toBeVisible();
    await other.close();
    await resetter.close();
  });

  test('an invalid e-mail shows a zh-TW error beside the field while typing, before any blur', async ({ page }) => {
    await page.goto('/login');
    const field = page.getByLabel('電子郵件');
    await field.pressSequentially('tea@', { delay: 20 });
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    const message = page.getByText('電子郵件必須是有效的電子郵件地址');
    await expect(message).toBeVisible();
    await expect(field).toHaveAttribute('aria-describedby', (await message.getAttribute('id'))!);
    await field.pressSequentially('shanlan.tw', { delay: 20 });
    await expect(message).toHaveCount(0);
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  });

  test('submitting an empty form focuses the first error', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: '註冊' }).click();
    await expect(page.getByLabel('會員名稱')).toBeFocused();
    await expect(page.getByText('會員名稱為必填欄位')).toBeVisible();
  });

  test('a member changes the password after confirming the current one', async ({ page }) => {
    const email = `change-${unique()}@example.com`;
    await page.goto('/register');
    await fillRegister(page, email, '我的第一個茶密碼');
    await page.getByRole('button', { name: '註冊' }).click();
    await expect(page).toHaveURL('/member');

    await page.goto('/member/resetPassword');
    await expect(page).toHaveURL('/member');

    await page.getByRole('navigation', { name: '會員中心選單' }).getByRole('link', { name: '修改密碼' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密碼' });
    await dialog.getByLabel('目前的密碼').fill('猜錯的密碼啦啦啦');
    await dialog.getByRole('button', { name: '確認' }).click();
    await expect(dialog.getByText('目前的密碼不正確。')).toBeVisible();
    await dialog.getByLabel('目前的密碼').fill('我的第一個茶密碼');
    await dialog.getByRole('button', { name: '確認' }).click();
    await expect(page).toHaveURL('/member/resetPassword');

    await page.getByLabel('新密碼').fill('換成第二個茶密碼');
    await page.getByLabel('確認密碼').fill('換成第二個茶密碼');
    await page.getByRole('button', { name: '儲存新密碼' }).click();
    await expect(page).toHaveURL('/member');
    await expect(page.getByText('密碼已更新')).toBeVisible();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('resetPassword') ?? '{}').state?.resetPasswordAuth)).toBe(false);
    await page.goto('/member/resetPassword');
    await expect(page).toHaveURL('/member');
  });

  test('an expired or made-up link explains itself and offers a way out', async ({ page }) => {
    await page.goto('/resetPassword?code=made-up-code-that-never-existed');
    await expect(page.getByRole('heading', { name: '連結無效' })).toBeVisible();
    await expect(page.getByRole('link', { name: '重新申請重設密碼' })).toBeVisible();
    await page.goto('/emailVerification?code=made-up-code-that-never-existed');
    await expect(page.getByRole('heading', { name: '連結無效' })).toBeVisible();
    await expect(page.getByRole('link', { name: '登入後重新寄送驗證信' })).toBeVisible();
  });
});
