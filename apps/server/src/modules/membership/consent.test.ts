import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { marketingConsents, users } from '../../db/schema.ts';
import { unsubscribeToken } from './consent.ts';

const PASSWORD = '山嵐高山烏龍-2026';

/** Marketing-mail consent: given at sign-up or in the member area, withdrawn there or by the mail's link. */
describe.skipIf(!dbAvailable())('marketing-mail consent and unsubscribe links', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const recordsOf = async (email: string) => {
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    return ctx.database.db
      .select({
        kind: marketingConsents.kind,
        granted: marketingConsents.granted,
        source: marketingConsents.source,
      })
      .from(marketingConsents)
      .where(eq(marketingConsents.userId, user!.id))
      .orderBy(asc(marketingConsents.id));
  };
  const register = (email: string, extra: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: ORIGIN },
      payload: {
        displayName: '林小嵐',
        email,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        acceptTerms: true,
        ...extra,
      },
    });
  const setConsent = (cookie: string, granted: unknown) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/me/marketing-consent',
      headers: { cookie, origin: ORIGIN },
      payload: { granted },
    });
  /** A member who agreed in the member area; their signed link's path. */
  const subscribed = async (email: string) => {
    const s = await shopper(ctx.app, email);
    expect((await setConsent(s.cookie, true)).json()).toMatchObject({ granted: true });
    return { s, path: `/unsubscribe/${unsubscribeToken(ctx.app.config.mailLinkSecret, s.uid)}` };
  };
  const granted = async (cookie: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/me/marketing-consent', headers: { cookie } })).json()
      .granted as boolean;

  it('is off unless the box at sign-up is ticked, and the record says when and where', async () => {
    expect((await register('consent-none@example.com')).statusCode).toBe(201);
    expect(await recordsOf('consent-none@example.com')).toEqual([]);
    const yes = await register('consent-yes@example.com', { marketingMail: true });
    expect(yes.statusCode).toBe(201);
    expect(await recordsOf('consent-yes@example.com')).toEqual([
      { kind: 'marketing-mail', granted: true, source: 'sign-up' },
    ]);
    const bad = await register('consent-bad@example.com', { marketingMail: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.marketingMail).toBe('請選擇是否要收到新品與優惠通知');
  });

  it('the member-area switch records each change once; a bad value is refused and changes nothing', async () => {
    const s = await shopper(ctx.app, 'consent-switch@example.com');
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/me/marketing-consent',
          headers: { cookie: s.cookie },
        })
      ).json(),
    ).toEqual({
      granted: false,
      at: null,
    });
    const on = (await setConsent(s.cookie, true)).json();
    expect(on.granted).toBe(true);
    expect(Date.parse(on.at)).toBeGreaterThan(Date.now() - 60_000);
    await setConsent(s.cookie, true);
    const bad = await setConsent(s.cookie, 'no');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.granted).toBe('請選擇是否要收到新品與優惠通知');
    await setConsent(s.cookie, false);
    expect(await recordsOf('consent-switch@example.com')).toEqual([
      { kind: 'marketing-mail', granted: true, source: 'settings' },
      { kind: 'marketing-mail', granted: false, source: 'settings' },
    ]);
    const signedOut = await ctx.app.inject({
      method: 'PUT',
      url: '/api/me/marketing-consent',
      headers: { origin: ORIGIN },
      payload: { granted: true },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('opening the link (GET) shows a page with a button and changes nothing', async () => {
    const { s, path } = await subscribed('link-get@example.com');
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('取消訂閱新品與優惠通知');
    expect(page.body).toContain(`<form method="post" action="${path}">`);
    expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
    await ctx.app.inject({ method: 'HEAD', url: path });
    expect(await granted(s.cookie)).toBe(true);
  });

  it('one POST with the one-click body unsubscribes, without a session; again changes nothing', async () => {
    const { s, path } = await subscribed('link-post@example.com');
    const res = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('已為您取消訂閱');
    expect(await granted(s.cookie)).toBe(false);
    await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(await recordsOf('link-post@example.com')).toEqual([
      { kind: 'marketing-mail', granted: true, source: 'settings' },
      { kind: 'marketing-mail', granted: false, source: 'unsubscribe' },
    ]);
  });

  it('takes the one-click body as multipart/form-data too', async () => {
    const { s, path } = await subscribed('link-multipart@example.com');
    const boundary = '----shanlan42';
    const res = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await granted(s.cookie)).toBe(false);
  });

  it('a POST without the one-click body is refused and changes nothing', async () => {
    const { s, path } = await subscribed('link-nobody@example.com');
    for (const [type, payload] of [
      [undefined, undefined],
      ['application/x-www-form-urlencoded', ''],
      ['application/x-www-form-urlencoded', 'List-Unsubscribe=Yes'],
      ['application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click&extra=1'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: path,
        ...(type ? { headers: { 'content-type': type } } : {}),
        ...(payload !== undefined ? { payload } : {}),
      });
      expect(res.statusCode, `${type} ${payload}`).toBe(400);
    }
    expect(await granted(s.cookie)).toBe(true);
  });

  it('a forged, altered or foreign-key token is refused on GET and POST and changes nothing', async () => {
    const victim = await subscribed('link-victim@example.com');
    const other = await subscribed('link-other@example.com');
    const otherSig = other.path.split('.')[1]!;
    const victimId = victim.s.uid;
    const forged = [
      `/unsubscribe/${victimId}.${otherSig}`,
      `/unsubscribe/${victimId}.${'A'.repeat(43)}`,
      `/unsubscribe/${unsubscribeToken('someone-elses-secret-of-32-characters!', victimId)}`,
      `/unsubscribe/${victimId}`,
      `/unsubscribe/not-a-token`,
    ];
    for (const url of forged) {
      const get = await ctx.app.inject({ method: 'GET', url });
      expect(get.statusCode, url).toBe(400);
      expect(get.body).toContain('這個取消訂閱連結無效');
      const post = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(post.statusCode, url).toBe(400);
    }
    expect(await granted(victim.s.cookie)).toBe(true);
    expect(await granted(other.s.cookie)).toBe(true);
  });
});
