import { z } from 'zod';
import { taxIdProblem } from './invoice.ts';
import { STOREFRONT_MARKS } from './storefront-marks.ts';
import { textField } from './validation/zod.ts';

/**
 * The shop's own facts for its footer (company, 統一編號, contact, social links, payment and delivery
 * marks) and the measurement IDs of the consent-gated providers: site settings the owner edits in
 * the console (docs/decisions/042-consent-and-analytics.md).
 */

/** An https address on one of `hosts` (or '' for none), in words the owner can act on. */
const linkOn = (label: string, hosts: readonly string[], example: string) =>
  z
    .string({ error: `${label}格式不正確` })
    .trim()
    .max(300, { message: `${label}不能超過 300 個字元`, abort: true })
    .refine((value) => {
      if (value === '') return true;
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && hosts.includes(url.hostname.toLowerCase()) && !url.username;
      } catch {
        return false;
      }
    }, `${label}請填寫 https 開頭的網址，例如 ${example}`);

/** The footer's facts (PUT /api/admin/settings/storefront). */
export const StorefrontSettings = z
  .object({
    companyName: textField('公司名稱', 'required|max:60'),
    taxId: z
      .string({ error: '請填寫統一編號' })
      .trim()
      .max(8, { message: '統一編號為 8 位數字', abort: true })
      .superRefine((value, ctx) => {
        const problem = value === '' ? '請填寫統一編號' : taxIdProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    address: textField('公司地址', 'required|max:120'),
    phone: z
      .string({ error: '請填寫客服電話' })
      .trim()
      .max(20, { message: '客服電話不能超過 20 個字元', abort: true })
      .refine((v) => v !== '', '請填寫客服電話')
      .refine((v) => v === '' || /^[0-9+()\-\s#]{7,20}$/.test(v), '客服電話格式不正確，例如 049-275-1987'),
    lineUrl: linkOn('LINE 官方帳號連結', ['line.me', 'lin.ee', 'page.line.me'], 'https://lin.ee/abcdEFG'),
    facebookUrl: linkOn(
      'Facebook 粉絲專頁連結',
      ['www.facebook.com', 'facebook.com', 'm.facebook.com', 'fb.me', 'fb.com'],
      'https://www.facebook.com/shanlantea',
    ),
    marks: z
      .array(z.enum(STOREFRONT_MARKS, { message: '不認得這個付款或物流標示' }), {
        error: '請選擇要顯示的標示',
      })
      .max(STOREFRONT_MARKS.length)
      .refine((marks) => new Set(marks).size === marks.length, '標示不能重複'),
  })
  .strict();
export type StorefrontSettings = z.infer<typeof StorefrontSettings>;
export type StorefrontSettingsInput = z.input<typeof StorefrontSettings>;

/** GA4 measurement ID: G- and letters or digits, e.g. G-AB12CD34EF. */
export const GA4_MEASUREMENT_ID = /^G-[A-Z0-9]{4,16}$/;
/** Meta Pixel ID: digits only (15 or 16 in practice). */
export const META_PIXEL_ID = /^[0-9]{6,20}$/;
/** LINE Tag ID: the tag's UUID as LINE Tag's base code carries it (tagId). */
export const LINE_TAG_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const idField = (label: string, pattern: RegExp, example: string, normalise: (v: string) => string) =>
  z
    .string({ error: `${label} 格式不正確` })
    .trim()
    .max(64, { message: `${label} 格式不正確，例如 ${example}`, abort: true })
    .transform(normalise)
    .refine((v) => v === '' || pattern.test(v), `${label} 格式不正確，例如 ${example}`);

/** The measurement IDs (PUT /api/admin/settings/analytics); '' leaves a provider off. */
export const AnalyticsSettings = z
  .object({
    ga4MeasurementId: idField('GA4 評估 ID', GA4_MEASUREMENT_ID, 'G-AB12CD34EF', (v) => v.toUpperCase()),
    metaPixelId: idField('Meta Pixel ID', META_PIXEL_ID, '123456789012345', (v) => v),
    lineTagId: idField('LINE Tag ID', LINE_TAG_ID, '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d', (v) =>
      v.toLowerCase(),
    ),
  })
  .strict();
export type AnalyticsSettings = z.infer<typeof AnalyticsSettings>;
export type AnalyticsSettingsInput = z.input<typeof AnalyticsSettings>;

/** GET /api/site/storefront: what every page shows and which providers the consent banner offers. */
export const StorefrontView = z.object({
  footer: z.object({
    companyName: z.string(),
    taxId: z.string(),
    address: z.string(),
    phone: z.string(),
    lineUrl: z.string(),
    facebookUrl: z.string(),
    marks: z.array(z.enum(STOREFRONT_MARKS)),
  }),
  analytics: z.object({ ga4MeasurementId: z.string(), metaPixelId: z.string(), lineTagId: z.string() }),
});
export type StorefrontView = z.infer<typeof StorefrontView>;

/** POST /api/me/cookie-consent: a signed-in member's cookie choice, kept as a record (decision 042). */
export const CookieConsentBody = z
  .object({
    analytics: z.boolean({ error: '請選擇是否同意分析 Cookie' }),
    marketing: z.boolean({ error: '請選擇是否同意行銷 Cookie' }),
    source: z.enum(['banner', 'settings'], { message: '不認得這個選擇的來源' }),
    version: z
      .number({ error: '同意書版本不正確' })
      .int('同意書版本不正確')
      .min(1, '同意書版本不正確')
      .max(1000, '同意書版本不正確'),
  })
  .strict();
export type CookieConsentBody = z.infer<typeof CookieConsentBody>;
