import { NO_ANALYTICS, thirdPartySources, type ThirdPartySources } from '@shop/shared/analytics-providers';
import { AnalyticsSettings, StorefrontSettings, type StorefrontView } from '@shop/shared/storefront';
import { STOREFRONT_MARK_LABELS } from '@shop/shared/storefront-marks';
import { BRAND_FACTS, type ShopFacts } from '../../lib/mail-layout.ts';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

/**
 * The shop's footer facts and measurement IDs (site_settings 'storefront' and 'analytics';
 * docs/decisions/042-consent-and-analytics.md). Every page shows the footer and every response
 * carries a content security policy built from the IDs, so each app keeps one copy in memory
 * (`StorefrontCopy`), read again after a save here, on another instance's news, and after a gap.
 */
const FOOTER_KEY = 'storefront';
const ANALYTICS_KEY = 'analytics';

/** Until the owner saves: the brand's own contact facts, no 統一編號 or links, no marks, no providers. */
export const DEFAULT_FOOTER: StorefrontView['footer'] = { ...BRAND_FACTS, marks: [] };

/** The stored values; a row that no longer fits the schema (broken by hand) falls back to the defaults. */
export async function readStorefront(db: DbOrTx): Promise<StorefrontView> {
  const [footer, analytics] = await Promise.all([
    repo.readSetting(db, FOOTER_KEY),
    repo.readSetting(db, ANALYTICS_KEY),
  ]);
  return {
    footer: StorefrontSettings.safeParse(footer?.value).data ?? DEFAULT_FOOTER,
    analytics: AnalyticsSettings.safeParse(analytics?.value).data ?? NO_ANALYTICS,
  };
}

/** Saves the footer facts; answers what they were (for the audit row). Tell the copy after the commit. */
export async function saveFooter(tx: DbOrTx, body: StorefrontSettings): Promise<StorefrontView['footer']> {
  const before = (await readStorefront(tx)).footer;
  await repo.writeSetting(tx, FOOTER_KEY, { ...body, marks: [...body.marks] });
  return before;
}

/** Saves the measurement IDs; answers what they were (for the audit row). */
export async function saveAnalytics(
  tx: DbOrTx,
  body: AnalyticsSettings,
): Promise<StorefrontView['analytics']> {
  const before = (await readStorefront(tx)).analytics;
  await repo.writeSetting(tx, ANALYTICS_KEY, { ...body });
  return before;
}

const listeners = new Set<() => void>();

/** Called after the footer or the IDs changed in this process (pages kept for others listen). */
export function onStorefrontChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** One app's copy: what pages show and what the content security policy allows, without waiting. */
export interface StorefrontCopy {
  current(): StorefrontView;
  /** The policy's third-party sources for the IDs in force: the same object until they change. */
  sources(): ThirdPartySources;
  /** Reads the settings again (after a save, another instance's news, a gap), then tells the listeners. */
  reload(db: DbOrTx): Promise<void>;
}

export function storefrontCopy(): StorefrontCopy {
  let view: StorefrontView = { footer: DEFAULT_FOOTER, analytics: NO_ANALYTICS };
  let sources = thirdPartySources(NO_ANALYTICS);
  return {
    current: () => view,
    sources: () => sources,
    async reload(db) {
      const next = await readStorefront(db);
      if (JSON.stringify(next.analytics) !== JSON.stringify(view.analytics))
        sources = thirdPartySources(next.analytics);
      view = next;
      for (const listener of listeners) listener();
    },
  };
}

/** The footer's facts as a mail's footer shows them (the marks in words). */
export function mailFacts(footer: StorefrontView['footer']): ShopFacts {
  return { ...footer, marks: footer.marks.map((m) => STOREFRONT_MARK_LABELS[m]) };
}
