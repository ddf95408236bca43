import { expect, test } from './test.ts';
import { linkIn, waitForMail } from './mailbox.ts';
import { fillRegister, signInBrowser, uniqueEmail } from './support.ts';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe('accounts in a real browser', () => {
  test('a link scanner fetching the verification link (a plain GET, no script) does not spend it', async ({
    page,
    playwright,
  }) => {
    const email = `scanned-${unique()}@example.com`;
    const res = await page.request.post('/api/auth/register', {
      data: {
        displayName: '王小茶',
        email,
        password: '清晨的第一泡烏龍',
        passwordConfirm: '清晨的第一泡烏龍',
        acceptTerms: true,
      },
    });
    expect(res.status()).toBe(201);
    const link = linkIn(await waitForMail(email, '請驗證您的電子郵件'));
    // What a mail scanner or a link preview does: fetch the page, run nothing, carry no cookie.
    const scanner = await playwright.request.newContext();
    expect((await scanner.get(link)).status()).toBe(200);
    await scanner.dispose();
    expect((await (await page.request.get('/api/auth/me')).json()).user).toMatchObject({
      email,
      emailVerified: false,
    });
    // The member's own click still verifies.
    await page.goto(link);
    await expect(page.getByRole('heading', { name: '電子郵件驗證完成' })).toBeVisible();
  });

  test('register, verify by mail, sign out, sign in, reset the password by mail; the old session and password stop working', async ({
    page,
    browser,
  }) => {
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
    await expect(page.getByRole('banner').getByRole('link', { name: '登入', exact: true })).toBeVisible();
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
    await expect
      .poll(async () => (await otherPage.request.get('/api/auth/me')).json())
      .toEqual({ user: null });
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

  test('an invalid e-mail shows a zh-TW error beside the field while typing, before any blur', async ({
    page,
  }) => {
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

    await page
      .getByRole('navigation', { name: '會員中心選單' })
      .getByRole('link', { name: '修改密碼' })
      .click();
    const dialog = page.getByRole('dialog', { name: '修改密碼' });
    await dialog.getByLabel('目前的密碼').fill('猜錯的密碼啦啦啦');
    await dialog.getByRole('button', { name: '確認' }).click();
    await expect(dialog.getByText('目前的密碼不正確。')).toBeVisible();
    // One error, beside the one field asked for: nothing about an e-mail address.
    await expect(dialog.getByText(/電子郵件/)).toHaveCount(0);
    await dialog.getByLabel('目前的密碼').fill('我的第一個茶密碼');
    await dialog.getByRole('button', { name: '確認' }).click();
    await expect(page).toHaveURL('/member/resetPassword');

    await page.getByLabel('新密碼').fill('換成第二個茶密碼');
    await page.getByLabel('確認密碼').fill('換成第二個茶密碼');
    await page.getByRole('button', { name: '儲存新密碼' }).click();
    await expect(page).toHaveURL('/member');
    await expect(page.getByText('密碼已更新')).toBeVisible();
    expect(
      await page.evaluate(
        () => JSON.parse(localStorage.getItem('resetPassword') ?? '{}').state?.resetPasswordAuth,
      ),
    ).toBe(false);
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

  test('a refused sign-up says how long to wait', async ({ page, playwright, baseURL }) => {
    const email = `busy-${unique()}@example.com`;
    const body = {
      displayName: '王小茶',
      email,
      password: '三月的明前龍井茶',
      passwordConfirm: '三月的明前龍井茶',
      acceptTerms: true,
    };
    // Three sign-ups an hour per e-mail address: the first makes the account, two more find it taken.
    const elsewhere = await playwright.request.newContext({ baseURL });
    for (let i = 0; i < 3; i++)
      expect([201, 409]).toContain((await elsewhere.post('/api/auth/register', { data: body })).status());
    await elsewhere.dispose();

    await page.goto('/register');
    await fillRegister(page, email, body.password);
    await page.getByRole('button', { name: '註冊' }).click();
    await expect(page.getByRole('alert').filter({ hasText: '嘗試次數過多' })).toContainText(
      /請於 (59|60) 分鐘後再試。/,
    );
  });

  test('a locked sign-in says how long the lock lasts and offers the password reset that lifts it', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const email = `locked-${unique()}@example.com`;
    const password = '只有我知道的高山茶';
    const owner = await playwright.request.newContext({ baseURL });
    expect(
      (
        await owner.post('/api/auth/register', {
          data: { displayName: '王小茶', email, password, passwordConfirm: password, acceptTerms: true },
        })
      ).status(),
    ).toBe(201);
    await owner.dispose();
    // Someone else fails five times from a browser the account never used.
    const stranger = await playwright.request.newContext({ baseURL });
    for (let i = 0; i < 5; i++)
      expect(
        (
          await stranger.post('/api/auth/login', { data: { email, password: `亂猜的密碼第${i}次` } })
        ).status(),
      ).toBe(400);
    await stranger.dispose();

    await page.goto('/login');
    await page.getByLabel('電子郵件').fill(email);
    await page.getByLabel('密碼', { exact: true }).fill(password);
    await page.getByRole('button', { name: '登入' }).click();
    const alert = page.getByRole('alert').filter({ hasText: '嘗試次數過多' });
    await expect(alert).toContainText(/請於 1[45] 分鐘後再試/);
    await expect(alert).toContainText('重設密碼，完成後即可登入');
    await alert.getByRole('link', { name: '重設密碼' }).click();
    await expect(page).toHaveURL('/forgetPassword');
  });

  test('a console invite to a registered address is 邀請中 until the mailed link is accepted, and the link says what it is', async ({
    browser,
    page,
  }) => {
    test.slow();
    const email = `future-staff-${unique()}@example.com`;
    const first = '我先註冊了這個信箱';
    // Someone registers the address as a shopper first.
    await page.goto('/register');
    await fillRegister(page, email, first);
    await page.getByRole('button', { name: '註冊' }).click();
    await expect(page).toHaveURL('/member');

    const ownerContext = await browser.newContext();
    await signInBrowser(ownerContext, uniqueEmail('owner'), 'owner');
    const owner = await ownerContext.newPage();
    await owner.goto('/admin/staff');
    await owner.getByLabel('電子郵件').fill(email);
    await owner.getByLabel('角色').selectOption('staff');
    const asked = Date.now();
    await owner.getByRole('button', { name: '寄送邀請信' }).click();
    await expect(owner.getByText(`已寄出邀請給 ${email}（店員）`)).toBeVisible();
    const row = owner.getByRole('row').filter({ hasText: email });
    await expect(row.getByText('邀請中')).toBeVisible();

    // The shopper's session reaches nothing in the console.
    expect((await page.request.get('/api/admin/orders')).status()).toBe(403);

    // The mailbox's owner opens the link in their own browser.
    const mail = await waitForMail(email, '邀請您加入管理後台', { after: asked - 1000 });
    expect(mail.text).toContain('店員');
    const colleague = await browser.newContext();
    const invitee = await colleague.newPage();
    await invitee.goto(linkIn(mail));
    await expect(invitee.getByRole('heading', { name: '接受管理後台邀請' })).toBeVisible();
    await expect(invitee.getByText('您受邀以「店員」的身分使用管理後台')).toBeVisible();
    await invitee.getByLabel('新密碼').fill('接受邀請後的新密碼');
    await invitee.getByLabel('確認密碼').fill('接受邀請後的新密碼');
    await invitee.getByRole('button', { name: '接受邀請並設定密碼' }).click();
    await expect(invitee).toHaveURL('/resetPasswordSuccess');
    // The first registrant's session ended with the acceptance.
    await expect.poll(async () => (await page.request.get('/api/auth/me')).json()).toEqual({ user: null });

    await owner.reload();
    await expect(owner.getByRole('row').filter({ hasText: email }).getByText('使用中')).toBeVisible();
    await Promise.all([ownerContext.close(), colleague.close()]);
  });
});
