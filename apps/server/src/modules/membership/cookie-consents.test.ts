import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { listCookieConsents } from './cookie-consents-repo.ts';

describe.skipIf(!dbAvailable())('a member’s cookie choices on record', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const post = (payload: object, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/me/cookie-consent',
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      payload,
    });

  it('keeps one row per category for each choice, with its source and version', async () => {
    const { cookie, uid } = await signIn(ctx.app, 'consent-member@example.com');
    expect(
      (await post({ analytics: true, marketing: true, source: 'banner', version: 1 }, cookie)).statusCode,
    ).toBe(204);
    expect(
      (await post({ analytics: true, marketing: false, source: 'settings', version: 1 }, cookie)).statusCode,
    ).toBe(204);
    const rows = await listCookieConsents(ctx.database.db, uid);
    expect(rows.map(({ kind, granted, source }) => `${source}:${kind}:${granted}`).sort()).toEqual([
      'banner:analytics:true',
      'banner:marketing:true',
      'settings:analytics:true',
      'settings:marketing:false',
    ]);
    expect(rows.every((r) => r.version === 1 && r.at instanceof Date)).toBe(true);
  });

  it('asks who is choosing, and refuses a malformed choice in zh-TW, recording nothing', async () => {
    expect((await post({ analytics: true, marketing: true, source: 'banner', version: 1 })).statusCode).toBe(
      401,
    );
    const { cookie, uid } = await signIn(ctx.app, 'consent-bad@example.com');
    const res = await post({ analytics: 'yes', marketing: true, source: 'popup', version: 1 }, cookie);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { fields: Record<string, string> } }).error.fields).toEqual({
      analytics: '請選擇是否同意分析 Cookie',
      source: '不認得這個選擇的來源',
    });
    expect(await listCookieConsents(ctx.database.db, uid)).toEqual([]);
  });
});
