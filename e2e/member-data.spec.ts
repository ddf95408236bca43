import fs from 'node:fs';
import { expect, test } from './test.ts';
import { waitForMail } from './mailbox.ts';
import { fillRegister, PHONE, uniqueEmail } from './support.ts';

const PASSWORD = 'Tea-lover-2026!';

test.describe("a member's own data", () => {
  test('a member downloads their data, then deletes the account and cannot sign in again', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    const email = uniqueEmail('leaving');
    await page.goto('/register');
    await fillRegister(page, email, PASSWORD);
    await page.getByRole('button', { name: '註冊' }).click();
    await expect(page).toHaveURL('/member');

    // The export asks for the password first, then downloads by itself.
    await page.getByRole('button', { name: '下載我的資料' }).click();
    const dialog = page.getByRole('dialog', { name: '確認密碼' });
    await expect(dialog).toBeVisible();
    const download = page.waitForEvent('download');
    await dialog.getByLabel('目前的密碼').fill(PASSWORD);
    await dialog.getByRole('button', { name: '確認' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^shanlan-member-data-\d{8}\.json$/);
    const data = JSON.parse(fs.readFileSync(await file.path(), 'utf8'));
    expect(data.profile).toMatchObject({ email, displayName: '王小茶' });
    expect(Array.isArray(data.orders)).toBe(true);
    expect(data.signIns.length).toBeGreaterThan(0);

    // Deleting: the box must be ticked; within the 5 minutes no password is asked again.
    await page.getByRole('button', { name: '刪除帳號' }).click();
    const confirm = page.getByRole('dialog', { name: '刪除會員帳號' });
    await expect(confirm.getByRole('button', { name: '確認刪除帳號' })).toBeDisabled();
    await confirm.getByLabel('我了解刪除後無法復原').check();
    await confirm.getByRole('button', { name: '確認刪除帳號' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByText('您的會員帳號已刪除')).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: '登入', exact: true })).toBeVisible();
    expect((await waitForMail(email, '您的會員帳號已刪除')).text).toContain('訂單與發票紀錄仍會保留');

    // The old address and password open nothing.
    await page.goto('/login');
    await page.getByLabel('電子郵件').fill(email);
    await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登入', exact: true }).click();
    await expect(page.getByText(/帳號或密碼不正確|找不到|不正確/).first()).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });
});
