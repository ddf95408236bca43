import { expect, test } from './test.ts';
import { linkIn, waitForMail } from './mailbox.ts';
import { signInBrowser, uniqueEmail } from './support.ts';

test('a reset link already used, opened again in the same browser, says so at once instead of showing the form', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('reset-again');
  await signInBrowser(context, email);
  await context.clearCookies();
  const asked = Date.now();
  await page.goto('/forgetPassword');
  await page.getByLabel('電子郵件').fill(email);
  await page.getByRole('button', { name: '寄送重設密碼信' }).click();
  await expect(page).toHaveURL('/forgetPasswordConfirm');
  const link = linkIn(await waitForMail(email, '重設您的密碼', { after: asked - 1000 }));

  await page.goto(link);
  await expect(page.getByRole('heading', { name: '設定新密碼' })).toBeVisible();
  await page.getByLabel('新密碼').fill('Oolong-2026-new');
  await page.getByLabel('確認密碼').fill('Oolong-2026-new');
  await page.getByRole('button', { name: '儲存新密碼' }).click();
  await expect(page).toHaveURL('/resetPasswordSuccess');

  // The link opened again from the mail, in the same browser, at once.
  await page.goto(link);
  await expect(page.getByRole('link', { name: '重新申請重設密碼' })).toBeVisible();
  await expect(page.getByLabel('新密碼')).toHaveCount(0);
});
