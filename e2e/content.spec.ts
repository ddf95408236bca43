import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './test.ts';
import type { Page } from '@playwright/test';
import { BRAND } from '@shop/shared/brand';
import { waitForMail } from './mailbox.ts';
import { signInBrowser } from './support.ts';

/** Every public page with a heading that proves its content arrived from the database. */
const PUBLIC_PAGES: Array<{ path: string; heading: string | RegExp; text?: string }> = [
  { path: '/', heading: /山嵐|茶/, text: '茶師' },
  { path: '/home', heading: '關於山嵐茶事', text: '1987' },
  { path: '/team', heading: '團隊介紹', text: '陳以安' },
  { path: '/master', heading: '茶師介紹', text: '陳家和' },
  { path: '/jobs', heading: '人才招募', text: '焙茶' },
  { path: '/media', heading: '媒體報導', text: '影片' },
  { path: '/download', heading: '檔案下載', text: 'PDF' },
  { path: '/patentsAndTrademarks', heading: '專利與商標', text: 'TW I548716' },
  { path: '/shipping', heading: '購物與配送須知' },
  { path: '/shippingFee', heading: '運費說明', text: '免運' },
  { path: '/transport', heading: '運送方式', text: '離島' },
  { path: '/serviceTerms', heading: '服務條款' },
  { path: '/privacyPolicy', heading: '隱私權政策', text: '個人資料保護法' },
  { path: '/faq', heading: '常見問題', text: '訂購與付款' },
  { path: '/contact', heading: '聯絡我們', text: BRAND.email },
  { path: '/maintenance', heading: /系統維護/ },
  { path: '/login', heading: '會員登入' },
  { path: '/register', heading: '註冊會員' },
  { path: '/forgetPassword', heading: '忘記密碼' },
];

/** Requests for page data (content and catalogue APIs), as the page loads. */
function countDataRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^\/api\/(content|catalog)\//.test(url.pathname)) urls.push(url.pathname + url.search);
  });
  return urls;
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

test.describe('public pages', () => {
  for (const p of PUBLIC_PAGES) {
    test(`${p.path} arrives with its content, asks for no data after it, and passes axe`, async ({
      page,
    }) => {
      const requests = countDataRequests(page);
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      if (p.text) await expect(page.getByRole('main')).toContainText(p.text);
      await page.waitForLoadState('networkidle');
      // Rendered on the server with its data, which the browser takes over (docs/decisions/024).
      expect(requests, requests.join(', ')).toEqual([]);
      await expectNoSeriousAxeViolations(page);
    });
  }

  test('team and master details are for members, and pass axe once signed in', async ({ page, context }) => {
    await page.goto('/master');
    await page.getByRole('link', { name: '林秀琴' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fmaster%2Flin-xiu-qin/);
    await signInBrowser(context);
    for (const [path, name] of [
      ['/master/lin-xiu-qin', '林秀琴'],
      ['/team/chen-yi-an', '陳以安'],
    ] as const) {
      const requests = countDataRequests(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(requests, requests.join(', ')).toEqual([]);
      await expectNoSeriousAxeViolations(page);
    }
    await expect(page.getByRole('main')).toContainText('喜歡的茶');
  });

  test('media plays a video only after a click: no third-party request on load', async ({ page }) => {
    const thirdParty: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('http://localhost')) thirdParty.push(r.url());
    });
    // The player itself is not what we test; answer it locally so no request leaves the machine.
    await page.route(/youtube-nocookie\.com/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>player</p>' }),
    );
    await page.goto('/media?type=video');
    await expect(page.getByRole('heading', { level: 1, name: '媒體報導' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(thirdParty).toEqual([]);
    await page.getByRole('button', { name: /播放/ }).first().click();
    await expect(page.locator('iframe[src*="youtube-nocookie.com/embed/"]')).toBeVisible();
    expect(thirdParty.some((u) => u.includes('youtube-nocookie.com'))).toBe(true);
  });

  test('the landing marquee runs for 20 s a loop and pauses on hover and on focus', async ({ page }) => {
    await page.goto('/');
    const track = page.getByTestId('marquee-track');
    await expect(track).toBeVisible();
    const animation = () =>
      track.evaluate((el) => {
        const [a] = el.getAnimations();
        const timing = a?.effect?.getComputedTiming();
        return a
          ? {
              state: a.playState,
              time: Number(a.currentTime),
              duration: timing?.duration,
              iterations: timing?.iterations,
              delay: timing?.delay,
            }
          : null;
      });
    const first = await animation();
    expect(first).toMatchObject({ state: 'running', duration: 20_000, iterations: Infinity, delay: 0 });
    await page.waitForTimeout(300);
    expect((await animation())!.time).toBeGreaterThan(first!.time);

    // The track itself never holds still, so point at the band that holds it.
    await page.locator('section', { has: track }).hover();
    await expect.poll(async () => (await animation())!.state).toBe('paused');
    const paused = (await animation())!.time;
    await page.waitForTimeout(300);
    expect((await animation())!.time).toBe(paused);

    await page.mouse.move(5, 600);
    await expect.poll(async () => (await animation())!.state).toBe('running');

    await track.getByRole('link').first().focus();
    await expect.poll(async () => (await animation())!.state).toBe('paused');
  });

  test('the marquee stands still for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const track = page.getByTestId('marquee-track');
    await expect(track).toBeVisible();
    expect(await track.evaluate((el) => el.getAnimations().length)).toBe(0);
    // The announcements still read once each.
    await expect(track.locator('li:visible')).toHaveCount(
      await track.locator('ul').first().locator('li').count(),
    );
  });

  test('a link to a FAQ question opens its answer and scrolls it to 120 px from the top', async ({
    page,
  }) => {
    await page.goto('/faq#outlying-islands');
    const item = page.locator('li#outlying-islands');
    await expect(item.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
    await expect(item.getByRole('region')).toBeVisible();
    await expect(item.getByRole('region')).toContainText('離島');
    await expect
      .poll(() => item.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 3000 })
      .toBe(120);

    // Another question opens with the panel animation, and search narrows the list.
    const other = page.locator('li#cold-brew-at-home');
    await other.getByRole('button').click();
    await expect(other.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
    const transition = await other.getByRole('region').evaluate((el) => getComputedStyle(el).transition);
    expect(transition).toContain('0.5s');
    expect(transition).toContain('ease-in-out');
    await page.getByLabel('搜尋問題').fill('冷泡');
    await expect(page.getByText(/找到 \d+ 個相關問題/)).toBeVisible();
    await expect(page.locator('li#payment-methods')).toHaveCount(0);
    await expect(other).toBeVisible();
  });

  test('the contact form explains mistakes in zh-TW while typing, then stores and mails the message', async ({
    page,
  }) => {
    const started = Date.now();
    await page.goto('/contact');
    const name = page.getByLabel('姓名');
    await expect(name).toBeVisible();
    const shownAt = Date.now();
    await name.fill('林');
    await name.fill('');
    await expect(page.getByText('姓名為必填欄位')).toBeVisible();
    await page.getByLabel('電子郵件').fill('lin@');
    await expect(page.getByText('電子郵件必須是有效的電子郵件地址')).toBeVisible();
    await page.getByLabel('訊息內容').fill('太短了');
    await expect(page.getByText('訊息內容不能少於 10 個字元')).toBeVisible();
    await page.getByLabel('電話（選填）').fill('abc');
    await expect(page.getByText('電話號碼格式不正確')).toBeVisible();

    await name.fill('林小嵐');
    await page.getByLabel('電子郵件').fill('lin.xiaolan@example.com');
    await page.getByLabel('電話（選填）').fill('0912-345-678');
    await page.getByLabel('詢問類別').selectOption('企業採購與禮盒');
    const message = `想詢問公司年節禮盒的報價，大約需要 60 盒。（測試 ${started}）`;
    await page.getByLabel('訊息內容').fill(message);
    await page.getByRole('button', { name: '送出' }).click();
    await expect(page.getByText('請閱讀並同意隱私權政策')).toBeVisible();
    await page.getByRole('checkbox').check();
    // A person takes a few seconds; the server turns away forms sent faster than 3 s.
    await page.waitForTimeout(Math.max(0, 3300 - (Date.now() - shownAt)));
    await page.getByRole('button', { name: '送出' }).click();
    const reference = page.getByTestId('contact-reference');
    await expect(reference).toHaveText(/^C\d{13}$/);
    const referenceNo = (await reference.textContent())!;

    const mail = await waitForMail(BRAND.email, referenceNo, { after: started });
    expect(mail.subject).toContain('企業採購與禮盒');
    expect(mail.text).toContain(message);
    expect(mail.text).toContain('lin.xiaolan@example.com');
    // Answering the mail answers the person who wrote.
    expect(mail.replyTo).toBe('lin.xiaolan@example.com');
  });

  test('applying for a job opens the contact form with the job chosen', async ({ page }) => {
    await page.goto('/jobs');
    await page.getByRole('link', { name: /應徵/ }).first().click();
    await expect(page).toHaveURL(/\/contact\?subject=.+&job=/);
    await expect(page.getByLabel('詢問類別')).toHaveValue('應徵工作');
    await expect(page.getByLabel('訊息內容')).toHaveValue(/我想應徵/);
  });

  test('a members-only download asks to sign in', async ({ page }) => {
    await page.goto('/download');
    await expect(page.getByText('會員限定').first()).toBeVisible();
    await page
      .getByRole('link', { name: /登入後下載/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdownload/);
  });

  test('a certificate opens in a dialog and closes with Escape', async ({ page }) => {
    await page.goto('/patentsAndTrademarks');
    await page.getByRole('button', { name: /證書/ }).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('img')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});
