import { useEffect, useId, useRef, useState } from 'react';
import type { AnalyticsIds, OptionalConsentCategory } from '@shop/shared/analytics-providers';
import { Button } from '../../components/ui/button.tsx';
import { Container } from '../../components/ui/page.tsx';
import { paths } from '../../config/paths.ts';
import { apiPost } from '../../lib/api-client.ts';
import { hasSessionCookie } from '../../lib/cookies.ts';
import { CONSENT_VERSION, readConsent, writeConsent, type ConsentChoice } from './consent-storage.ts';
import { setShopEventSink } from '../../lib/shop-events.ts';
import { sendShopEvent, startedBeyond, startProviders } from './providers.ts';

/**
 * The cookie banner and what it allows (docs/decisions/042-consent-and-analytics.md), loaded by the
 * layout after hydration only when a provider is configured (or the footer's 「Cookie 設定」 asks),
 * in a React root of its own (mount.tsx):
 * a fixed overlay at the bottom that moves nothing on the page. 「全部接受」 and 「僅必要」 carry the
 * same weight on the first layer; 「自訂」 chooses per category. Providers start only after their
 * category is consented to; withdrawing reloads the page if one had started, which stops it.
 */
type View = 'hidden' | 'first' | 'custom';

const CATEGORY_TEXT: Record<OptionalConsentCategory, { title: string; body: string; providers: string }> = {
  analytics: {
    title: '分析',
    body: '了解大家如何瀏覽與使用網站，幫助我們改善頁面與商品資訊。',
    providers: 'Google Analytics',
  },
  marketing: {
    title: '行銷',
    body: '衡量廣告成效，並在其他平台向您顯示可能感興趣的茶品。',
    providers: 'Meta Pixel、LINE Tag',
  },
};

export function ConsentRoot({ ids, openRequests }: { ids: AnalyticsIds; openRequests: number }) {
  const [choice, setChoice] = useState<ConsentChoice | null>(readConsent);
  const [view, setView] = useState<View>(() => (choice ? 'hidden' : 'first'));
  const choiceRef = useRef(choice);
  const idsRef = useRef(ids);
  useEffect(() => {
    choiceRef.current = choice;
    idsRef.current = ids;
  });

  // A choice stored before this page: its providers start now, and the moments told while this
  // code loaded are sent. A fresh choice starts them in `decide`, without those earlier moments.
  useEffect(() => {
    startProviders(idsRef.current, choiceRef.current);
    setShopEventSink(
      (event) => sendShopEvent(idsRef.current, choiceRef.current, event),
      choiceRef.current !== null,
    );
    return () => setShopEventSink(null, false);
  }, []);

  // Counted from 0: mounted by the footer's request, the settings open at once.
  const seenRequests = useRef(0);
  useEffect(() => {
    if (openRequests === seenRequests.current) return;
    seenRequests.current = openRequests;
    setView('custom');
  }, [openRequests]);

  const decide = (next: Record<OptionalConsentCategory, boolean>) => {
    const stored = writeConsent(next);
    // A signed-in member's choice is also kept on record by the shop (cookie_consents).
    if (hasSessionCookie())
      void apiPost('/api/me/cookie-consent', {
        ...next,
        source: choice ? 'settings' : 'banner',
        version: CONSENT_VERSION,
      }).catch(() => {});
    setView('hidden');
    if (startedBeyond(ids, stored)) {
      // A provider already running is stopped only by leaving the page: reload it without it.
      window.location.reload();
      return;
    }
    setChoice(stored);
    choiceRef.current = stored;
    startProviders(ids, stored);
  };

  if (view === 'hidden') return null;
  return (
    <ConsentPanel
      view={view}
      choice={choice}
      ids={ids}
      onAll={() => decide({ analytics: true, marketing: true })}
      onNecessary={() => decide({ analytics: false, marketing: false })}
      onCustom={() => setView('custom')}
      onSave={decide}
      onClose={choice ? () => setView('hidden') : undefined}
    />
  );
}

function ConsentPanel({
  view,
  choice,
  ids,
  onAll,
  onNecessary,
  onCustom,
  onSave,
  onClose,
}: {
  view: Exclude<View, 'hidden'>;
  choice: ConsentChoice | null;
  ids: AnalyticsIds;
  onAll(): void;
  onNecessary(): void;
  onCustom(): void;
  onSave(next: Record<OptionalConsentCategory, boolean>): void;
  onClose?: () => void;
}) {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [picked, setPicked] = useState<Record<OptionalConsentCategory, boolean>>({
    analytics: choice?.analytics ?? false,
    marketing: choice?.marketing ?? false,
  });
  // Opened from the footer: the panel is where the visitor's attention goes.
  useEffect(() => {
    if (view === 'custom') headingRef.current?.focus();
  }, [view]);
  const offered: OptionalConsentCategory[] = [];
  if (ids.ga4MeasurementId) offered.push('analytics');
  if (ids.metaPixelId || ids.lineTagId) offered.push('marketing');

  return (
    <section
      role="region"
      aria-labelledby={titleId}
      className="fixed inset-x-0 bottom-0 z-40 max-h-[85dvh] overflow-y-auto border-t border-line bg-surface pb-[env(safe-area-inset-bottom)] shadow-[0_-8px_24px_rgb(31_42_36/0.12)]"
    >
      <Container className="flex flex-col gap-4 py-5 sm:py-6">
        <div className="flex flex-col gap-2">
          <h2
            id={titleId}
            ref={headingRef}
            tabIndex={-1}
            className="text-lg font-semibold text-ink outline-none"
          >
            {view === 'first' ? '我們使用 Cookie' : 'Cookie 設定'}
          </h2>
          <p className="text-sm leading-relaxed text-ink-muted">
            必要的 Cookie 讓購物車、登入與結帳正常運作，一律啟用。分析與行銷 Cookie
            只在您同意後才會啟用，您隨時可以在頁尾的「Cookie 設定」更改。詳見
            <a href={paths.privacyPolicy()} className="text-tea underline underline-offset-4">
              隱私權政策
            </a>
            。
          </p>
        </div>

        {view === 'custom' && (
          <fieldset className="flex flex-col divide-y divide-line rounded-md border border-line">
            <legend className="sr-only">選擇要啟用的 Cookie 類別</legend>
            <div className="flex items-start justify-between gap-4 p-4">
              <div>
                <p className="font-medium text-ink">必要</p>
                <p className="text-sm text-ink-muted">登入、購物車、結帳與安全防護所需，無法關閉。</p>
              </div>
              <span className="shrink-0 rounded-full bg-tea-soft px-3 py-1 text-sm text-tea">一律啟用</span>
            </div>
            {(['analytics', 'marketing'] as const).map((category) => {
              const text = CATEGORY_TEXT[category];
              const used = offered.includes(category);
              return (
                <label key={category} className="flex cursor-pointer items-start justify-between gap-4 p-4">
                  <span>
                    <span className="block font-medium text-ink">{text.title}</span>
                    <span className="block text-sm text-ink-muted">
                      {text.body}
                      {used ? `（${text.providers}）` : '（本店目前未使用）'}
                    </span>
                  </span>
                  <input
                    type="checkbox"
                    className="mt-1 size-6 shrink-0 accent-tea"
                    checked={picked[category]}
                    onChange={(e) => setPicked((p) => ({ ...p, [category]: e.target.checked }))}
                  />
                </label>
              );
            })}
          </fieldset>
        )}

        <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-center">
          {/* Accepting and refusing weigh the same: one style, one size, side by side. */}
          <Button variant="secondary" className="sm:min-w-36" onClick={onAll}>
            全部接受
          </Button>
          <Button variant="secondary" className="sm:min-w-36" onClick={onNecessary}>
            僅必要
          </Button>
          {view === 'first' ? (
            <Button
              variant="ghost"
              className="col-span-2 underline underline-offset-4 sm:col-span-1"
              onClick={onCustom}
            >
              自訂
            </Button>
          ) : (
            <Button className="col-span-2 sm:col-span-1 sm:min-w-36" onClick={() => onSave(picked)}>
              儲存我的選擇
            </Button>
          )}
          {onClose && (
            <Button variant="ghost" className="col-span-2 sm:col-span-1 sm:ml-auto" onClick={onClose}>
              關閉
            </Button>
          )}
        </div>
      </Container>
    </section>
  );
}
