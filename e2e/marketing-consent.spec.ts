import { createHmac } from 'node:crypto';
import { expect, test } from './test.ts';
import { PHONE, fillRegister, uniqueEmail } from './support.ts';

/**
 * Marketing-mail consent in a real browser (docs/product-rules.md#reminders): the sign-up box, the
 * member area's switch, and the unsubscribe page a marketing mail links to.
 */

/** The unsubscribe link a marketing mail carries (the server's stand-in MAIL_LINK_SECRET outside production). */
const unsubscribePath = (uid: string) =>
  `/unsubscribe/${uid}.${createHmac('sha256', 'shanlan-dev-mail-link-secret-never-for-production')
    .update(`unsubscribe:marketing-mail:${uid}`)
    .digest('base64url')}`;

test.use({ viewport: PHONE });

test('ticked at sign-up, off by the mail link (only after its button), on again by the switch', async ({
  page,
  playwright,
  baseURL,
}) => {
  await page.goto('/register');
  const box = page.getByLabel('我願意收到新品與優惠通知');
  await expect(box).not.toBeChecked();
  await fillRegister(page, uniqueEmail('consent'), '春茶上市要通知我');
  await box.check();
  await page.getByRole('button', { name: '註冊' }).click();
  await expect(page).toHaveURL('/member');
  const toggle = page.getByRole('switch', { name: '新品與優惠通知' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  const uid = ((await (await page.request.get('/api/auth/me')).json()) as { user: { uid: string } }).user.uid;
  // A link scanner opens the link: nothing changes.
  const scanner = await playwright.request.newContext({ baseURL });
  expect((await scanner.get(unsubscribePath(uid))).status()).toBe(200);
  await scanner.dispose();
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  await page.goto(unsubscribePath(uid));
  await expect(page.getByRole('heading', { name: '取消訂閱新品與優惠通知' })).toBeVisible();
  await page.getByRole('button', { name: '取消訂閱' }).click();
  await expect(page.getByRole('heading', { name: '已為您取消訂閱' })).toBeVisible();

  await page.goto('/member');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
});
