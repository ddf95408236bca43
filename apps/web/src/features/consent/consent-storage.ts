import type { AnalyticsIds, OptionalConsentCategory } from '@shop/shared/analytics-providers';

/**
 * The visitor's cookie choice, kept in this browser (localStorage) with a version: a new version
 * (new categories or purposes) asks again. docs/decisions/042-consent-and-analytics.md.
 */
export const CONSENT_KEY = 'shop.consent';
export const CONSENT_VERSION = 1;

export interface ConsentChoice {
  readonly v: typeof CONSENT_VERSION;
  readonly analytics: boolean;
  readonly marketing: boolean;
  /** When it was chosen (ISO). */
  readonly at: string;
}

/** The stored choice of this version, or null (none, an older version, or unreadable). */
export function readConsent(): ConsentChoice | null {
  try {
    const value = JSON.parse(localStorage.getItem(CONSENT_KEY) ?? 'null') as Partial<ConsentChoice> | null;
    if (value?.v !== CONSENT_VERSION) return null;
    return {
      v: CONSENT_VERSION,
      analytics: value.analytics === true,
      marketing: value.marketing === true,
      at: String(value.at),
    };
  } catch {
    return null;
  }
}

export function writeConsent(choice: Record<OptionalConsentCategory, boolean>): ConsentChoice {
  const stored: ConsentChoice = { v: CONSENT_VERSION, ...choice, at: new Date().toISOString() };
  try {
    localStorage.setItem(CONSENT_KEY, JSON.stringify(stored));
  } catch {
    // Private mode with storage off: the choice holds for this page only.
  }
  return stored;
}

/** Whether there is anything to show or run: a provider is configured and no choice is stored, or a chosen one may run. */
export function consentNeeded(ids: AnalyticsIds): boolean {
  const analytics = ids.ga4MeasurementId !== '';
  const marketing = ids.metaPixelId !== '' || ids.lineTagId !== '';
  if (!analytics && !marketing) return false;
  const choice = readConsent();
  return !choice || (analytics && choice.analytics) || (marketing && choice.marketing);
}
