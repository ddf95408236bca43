import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { latestMail } from '../../../test/mail.ts';
import { auditLog, siteSettings } from '../../db/schema.ts';

const FOOTER = {
  companyName: '山嵐茶事有限公司',
  taxId: '87119873',
  address: '南投縣鹿谷鄉興產路 87 號',
  phone: '049-275-1987',
  lineUrl: 'https://lin.ee/shanlantea',
  facebookUrl: 'https://www.facebook.com/shanlantea',
  marks: ['visa', 'jcb', 'seven-eleven', 't-cat'],
};
const IDS = {
  ga4MeasurementId: 'G-AB12CD34EF',
  metaPixelId: '123456789012345',
  lineTagId: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
};

/** The policy's directives by name. */
const policy = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;

describe.skipIf(!dbAvailable())('the footer facts and measurement IDs in the console', () => {
  let ctx: TestContext;
  let owner: string;
  let staff: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    staff = (await signIn(ctx.app, 'staff@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await setRole(ctx.database, 'staff@example.com', 'staff');
  });
  afterAll(async () => ctx.close());

  const put = (url: string, body: unknown, cookie = owner) =>
    ctx.app.inject({ method: 'PUT', url, headers: { origin: ORIGIN, cookie }, payload: body as object });
  const publicView = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/api/site/storefront' })).json();
  const cspOf = async (url = '/api/site/status') =>
    policy((await ctx.app.inject({ method: 'GET', url })).headers['content-security-policy']);
  const audits = (action: string) =>
    ctx.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));

  it('answers the brand’s own facts, no marks and no providers before the owner saves', async () => {
    expect(await publicView()).toEqual({
      footer: {
        companyName: '山嵐茶事',
        taxId: '',
        address: '南投縣鹿谷鄉興產路 87 號',
        phone: '049-275-1987',
        lineUrl: '',
        facebookUrl: '',
        marks: [],
      },
      analytics: { ga4MeasurementId: '', metaPixelId: '', lineTagId: '' },
    });
  });

  it('the policy names no third-party host while no provider is configured', async () => {
    const csp = await cspOf();
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('saves the footer facts with an audit row; every page’s footer reads them at once', async () => {
    const res = await put('/api/admin/settings/storefront', FOOTER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(FOOTER);
    expect((await publicView()).footer).toEqual(FOOTER);
    const [row] = await audits('storefront.update');
    expect(row?.after).toEqual(FOOTER);
    expect((row?.before as { taxId: string }).taxId).toBe('');
  });

  it('every mail sent after a save carries the saved facts in its footer', async () => {
    const sender = 'asks@example.com';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { origin: ORIGIN },
      payload: {
        name: '王小茶',
        email: sender,
        subject: '商品諮詢',
        message: '請問今年的冬茶什麼時候會到貨呢？',
        consent: true,
        startedAt: Date.now() - 60_000,
      },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const mail = await latestMail(ctx.database, sender, 'contact-received');
    expect(mail.html).toContain('山嵐茶事有限公司・統一編號 87119873・南投縣鹿谷鄉興產路 87 號');
    expect(mail.html).toContain('href="https://lin.ee/shanlantea"');
    expect(mail.html).toContain('付款與配送：VISA・JCB・7-ELEVEN・黑貓宅急便');
    expect(mail.text).toContain('Facebook 粉絲專頁：https://www.facebook.com/shanlantea');
    expect(mail.text).toContain('統一編號 87119873');
  });

  it('refuses a 統一編號 that fails the check digit, a foreign link and an unknown mark, beside each field, changing nothing', async () => {
    const res = await put('/api/admin/settings/storefront', {
      ...FOOTER,
      companyName: '改名了',
      taxId: '87119871',
      facebookUrl: 'https://evil.example/shanlan',
      marks: ['paypal'],
    });
    expect(res.statusCode).toBe(400);
    const fields = (res.json() as { error: { fields: Record<string, string> } }).error.fields;
    expect(fields.taxId).toBe('統一編號的檢查碼不符，請對照發票或營業登記再確認一次');
    expect(fields.facebookUrl).toMatch(/^Facebook 粉絲專頁連結請填寫 https 開頭的網址/);
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['taxId', 'facebookUrl']));
    expect((await publicView()).footer).toEqual(FOOTER);
  });

  it('lets only a role that may change settings save them', async () => {
    expect((await put('/api/admin/settings/analytics', IDS, staff)).statusCode).toBe(403);
    expect((await put('/api/admin/settings/storefront', FOOTER, staff)).statusCode).toBe(403);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/settings/analytics',
          headers: { cookie: staff },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses IDs in other formats, in zh-TW beside each field', async () => {
    const res = await put('/api/admin/settings/analytics', {
      ga4MeasurementId: 'UA-12345-1',
      metaPixelId: 'abc',
      lineTagId: 'not-a-tag',
    });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { fields: Record<string, string> } }).error.fields).toEqual({
      ga4MeasurementId: 'GA4 評估 ID 格式不正確，例如 G-AB12CD34EF',
      metaPixelId: 'Meta Pixel ID 格式不正確，例如 123456789012345',
      lineTagId: 'LINE Tag ID 格式不正確，例如 1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
    });
    expect((await publicView()).analytics).toEqual({ ga4MeasurementId: '', metaPixelId: '', lineTagId: '' });
  });

  it('builds the policy from the configured providers only, from the next response on', async () => {
    // Meta Pixel alone: its hosts, none of Google's or LINE's.
    let res = await put('/api/admin/settings/analytics', { ...IDS, ga4MeasurementId: '', lineTagId: '' });
    expect(res.statusCode).toBe(200);
    let csp = await cspOf();
    expect(csp['script-src']).toEqual(["'self'", 'https://connect.facebook.net']);
    expect(csp['img-src']).toContain('https://www.facebook.com');
    expect(JSON.stringify(csp)).not.toMatch(/google|line\.me|line-scdn/);

    res = await put('/api/admin/settings/analytics', { ...IDS, ga4MeasurementId: 'g-ab12cd34ef' });
    expect(res.json()).toEqual(IDS);
    csp = await cspOf('/');
    expect(csp['script-src']).toEqual([
      "'self'",
      'https://*.googletagmanager.com',
      'https://connect.facebook.net',
      'https://d.line-scdn.net',
    ]);
    expect(csp['connect-src']).toEqual(
      expect.arrayContaining([
        'https://*.google-analytics.com',
        'https://www.facebook.com',
        'https://tr.line.me',
      ]),
    );
    expect((await publicView()).analytics).toEqual(IDS);
    const [row] = await audits('analytics.update');
    expect(row?.after).toEqual(IDS);

    // All off again: the policy is back to the shop's own hosts.
    await put('/api/admin/settings/analytics', { ga4MeasurementId: '', metaPixelId: '', lineTagId: '' });
    csp = await cspOf();
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
  });

  it('falls back to the defaults for a stored row that no longer fits', async () => {
    await ctx.database.db
      .update(siteSettings)
      .set({ value: { companyName: '' } })
      .where(eq(siteSettings.key, 'storefront'));
    await ctx.app.storefrontChanged();
    expect((await publicView()).footer.companyName).toBe('山嵐茶事');
  });
});
