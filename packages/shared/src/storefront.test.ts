import { describe, expect, it } from 'vitest';
import { AnalyticsSettings, StorefrontSettings } from './storefront.ts';
import { thirdPartySources, NO_ANALYTICS } from './analytics-providers.ts';

const footer = {
  companyName: '山嵐茶事有限公司',
  taxId: '87119873',
  address: '南投縣鹿谷鄉興產路 87 號',
  phone: '049-275-1987',
  lineUrl: 'https://lin.ee/shanlan',
  facebookUrl: 'https://www.facebook.com/shanlantea',
  marks: ['visa', 'seven-eleven'],
};

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('the footer settings', () => {
  it('take a valid company', () => {
    expect(StorefrontSettings.safeParse(footer).success).toBe(true);
  });

  it('check the 統一編號 with the check-digit rule, and the 7th-digit-7 case', () => {
    // 10458570: the sum is 25, divisible by 5 (the 2023 rule) but not by 10.
    expect(StorefrontSettings.safeParse({ ...footer, taxId: '10458570' }).success).toBe(true);
    // 7th digit 7: sum + 1 counts (10458574 → sum 29, 29 + 1 = 30); 10458573 (28) is no number.
    expect(StorefrontSettings.safeParse({ ...footer, taxId: '10458574' }).success).toBe(true);
    expect(StorefrontSettings.safeParse({ ...footer, taxId: '10458573' }).success).toBe(false);
    expect(messages(StorefrontSettings.safeParse({ ...footer, taxId: '87119871' }))).toEqual({
      taxId: '統一編號的檢查碼不符，請對照發票或營業登記再確認一次',
    });
    expect(messages(StorefrontSettings.safeParse({ ...footer, taxId: '1234' }))).toEqual({
      taxId: '統一編號為 8 位數字',
    });
  });

  it('take LINE and Facebook links only on their own https hosts, or none', () => {
    expect(StorefrontSettings.safeParse({ ...footer, lineUrl: '', facebookUrl: '' }).success).toBe(true);
    const bad = messages(
      StorefrontSettings.safeParse({
        ...footer,
        lineUrl: 'http://lin.ee/x',
        facebookUrl: 'https://facebook.com.evil.example/x',
      }),
    );
    expect(bad.lineUrl).toMatch(/^LINE 官方帳號連結請填寫 https 開頭的網址/);
    expect(bad.facebookUrl).toMatch(/^Facebook 粉絲專頁連結請填寫 https 開頭的網址/);
  });

  it('refuse an unknown or repeated mark', () => {
    expect(StorefrontSettings.safeParse({ ...footer, marks: ['paypal'] }).success).toBe(false);
    expect(messages(StorefrontSettings.safeParse({ ...footer, marks: ['visa', 'visa'] }))).toEqual({
      marks: '標示不能重複',
    });
  });
});

describe('the measurement IDs', () => {
  it('take each provider in its format, tidied', () => {
    expect(
      AnalyticsSettings.parse({
        ga4MeasurementId: ' g-ab12cd34ef ',
        metaPixelId: '123456789012345',
        lineTagId: '1A2B3C4D-5E6F-4A1B-8C2D-3E4F5A6B7C8D',
      }),
    ).toEqual({
      ga4MeasurementId: 'G-AB12CD34EF',
      metaPixelId: '123456789012345',
      lineTagId: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
    });
    expect(AnalyticsSettings.parse(NO_ANALYTICS)).toEqual(NO_ANALYTICS);
  });

  it('refuse other formats with the expected form in the message', () => {
    expect(
      messages(
        AnalyticsSettings.safeParse({
          ga4MeasurementId: 'UA-1234-1',
          metaPixelId: 'fb123',
          lineTagId: 'abc',
        }),
      ),
    ).toEqual({
      ga4MeasurementId: 'GA4 評估 ID 格式不正確，例如 G-AB12CD34EF',
      metaPixelId: 'Meta Pixel ID 格式不正確，例如 123456789012345',
      lineTagId: 'LINE Tag ID 格式不正確，例如 1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
    });
  });
});

describe('the third-party sources of the policy', () => {
  it('are none when no provider is entered', () => {
    expect(thirdPartySources(NO_ANALYTICS)).toEqual({ scriptSrc: [], connectSrc: [], imgSrc: [] });
  });

  it('name only the entered providers’ hosts', () => {
    const sources = thirdPartySources({ ...NO_ANALYTICS, metaPixelId: '123456789012345' });
    expect(sources.scriptSrc).toEqual(['https://connect.facebook.net']);
    expect(sources.imgSrc).toEqual(['https://www.facebook.com']);
    expect(JSON.stringify(sources)).not.toMatch(/google|line/);
  });
});
