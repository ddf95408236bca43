/**
 * The third-party measurement providers the owner may switch on, each with the consent category it
 * needs, its official script and the hosts it talks to. The server's content security policy and the
 * browser's loader both read this table, so a host is allowed exactly where a script may go
 * (docs/decisions/042-consent-and-analytics.md). No zod: the consent loader imports it.
 *
 * Hosts, from each provider's public documents:
 * - GA4: gtag.js from www.googletagmanager.com; hits to *.google-analytics.com and
 *   *.analytics.google.com (Google's "Use Tag Manager with a Content Security Policy" guide).
 * - Meta Pixel: fbevents.js from connect.facebook.net; hits to www.facebook.com/tr.
 * - LINE Tag: lt.js from d.line-scdn.net; hits to tr.line.me.
 */

/** Consent categories: 必要 (always on), 分析, 行銷. */
export const CONSENT_CATEGORIES = ['necessary', 'analytics', 'marketing'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];
/** The categories a visitor chooses (necessary is never a choice). */
export type OptionalConsentCategory = Exclude<ConsentCategory, 'necessary'>;

export type AnalyticsProvider = 'ga4' | 'meta' | 'line';

/** The IDs the owner entered; '' when a provider is not used. */
export interface AnalyticsIds {
  readonly ga4MeasurementId: string;
  readonly metaPixelId: string;
  readonly lineTagId: string;
}

export const NO_ANALYTICS: AnalyticsIds = { ga4MeasurementId: '', metaPixelId: '', lineTagId: '' };

export interface ProviderFacts {
  readonly category: OptionalConsentCategory;
  readonly idField: keyof AnalyticsIds;
  /** The official script for this ID. */
  readonly scriptUrl: (id: string) => string;
  readonly scriptSrc: readonly string[];
  readonly connectSrc: readonly string[];
  readonly imgSrc: readonly string[];
}

export const ANALYTICS_PROVIDERS: Readonly<Record<AnalyticsProvider, ProviderFacts>> = {
  ga4: {
    category: 'analytics',
    idField: 'ga4MeasurementId',
    scriptUrl: (id) => `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`,
    scriptSrc: ['https://*.googletagmanager.com'],
    connectSrc: [
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://*.googletagmanager.com',
    ],
    imgSrc: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  },
  meta: {
    category: 'marketing',
    idField: 'metaPixelId',
    scriptUrl: () => 'https://connect.facebook.net/en_US/fbevents.js',
    scriptSrc: ['https://connect.facebook.net'],
    connectSrc: ['https://www.facebook.com', 'https://connect.facebook.net'],
    imgSrc: ['https://www.facebook.com'],
  },
  line: {
    category: 'marketing',
    idField: 'lineTagId',
    scriptUrl: () => 'https://d.line-scdn.net/n/line_tag/public/release/v1/lt.js',
    scriptSrc: ['https://d.line-scdn.net'],
    connectSrc: ['https://tr.line.me', 'https://d.line-scdn.net'],
    imgSrc: ['https://tr.line.me'],
  },
};

export const PROVIDER_ORDER: readonly AnalyticsProvider[] = ['ga4', 'meta', 'line'];

/** The providers with an ID entered. */
export function configuredProviders(ids: AnalyticsIds): AnalyticsProvider[] {
  return PROVIDER_ORDER.filter((p) => ids[ANALYTICS_PROVIDERS[p].idField] !== '');
}

/** What the content security policy adds for these IDs: nothing when none is entered. */
export interface ThirdPartySources {
  readonly scriptSrc: readonly string[];
  readonly connectSrc: readonly string[];
  readonly imgSrc: readonly string[];
}

export function thirdPartySources(ids: AnalyticsIds): ThirdPartySources {
  const unique = (pick: (f: ProviderFacts) => readonly string[]) => [
    ...new Set(configuredProviders(ids).flatMap((p) => pick(ANALYTICS_PROVIDERS[p]))),
  ];
  return {
    scriptSrc: unique((f) => f.scriptSrc),
    connectSrc: unique((f) => f.connectSrc),
    imgSrc: unique((f) => f.imgSrc),
  };
}
