import { createRoot } from 'react-dom/client';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { BRAND } from '@shop/shared/brand';
import {
  DELIVERY_MARKS,
  PAYMENT_MARKS,
  STOREFRONT_MARK_LABELS,
  type StorefrontMark,
} from '@shop/shared/storefront-marks';
import { Container } from '../ui/page.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { storefrontQueryOptions } from '../../lib/storefront-query.ts';

/** One group of the owner's payment or delivery marks, as plain chips (no logos). */
function Marks({
  title,
  group,
  shown,
}: {
  title: string;
  group: readonly StorefrontMark[];
  shown: string[];
}) {
  const marks = group.filter((mark) => shown.includes(mark));
  if (marks.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="mr-1 text-xs font-semibold text-ink">{title}</h2>
      <ul className="contents">
        {marks.map((mark) => (
          <li key={mark} className="rounded border border-line bg-paper px-2 py-0.5 text-xs text-ink-muted">
            {STOREFRONT_MARK_LABELS[mark]}
          </li>
        ))}
      </ul>
    </div>
  );
}

const link = 'inline-flex min-h-9 items-center hover:text-tea';

/** Asks the layout for the cookie settings (app/consent-host.ts listens). */
const openConsentSettings = () => window.dispatchEvent(new Event('shop:open-consent'));

const useFacts = () => useQuery(storefrontQueryOptions()).data?.footer;

/**
 * In the browser: each part takes over its element (site-footer.tsx keeps the server's HTML in it
 * until now) in a React root of its own, with the app's query client (the page's data is there).
 */
export function takeOver(): void {
  for (const about of [true, false]) {
    const element = document.getElementById(about ? 'shop-about' : 'shop-facts');
    if (!element || element.dataset.taken) continue;
    element.dataset.taken = '1';
    createRoot(element).render(
      <QueryClientProvider client={queryClient}>
        <FooterPart about={about} />
      </QueryClientProvider>,
    );
  }
}

/** The footer's part from here: `about` beside the brand mark, or the facts at its foot. */
export default function FooterPart({ about }: { about?: boolean }) {
  return about ? <FooterAbout /> : <FooterFacts />;
}

/** The brand's few words and how to reach the shop, beside the brand mark. */
function FooterAbout() {
  const facts = useFacts();
  return (
    <>
      <p className="max-w-xs text-sm text-ink-muted">
        {BRAND.founded}{' '}
        年創立於南投鹿谷的家族茶行。以炭火慢焙高山烏龍，也把泡好一壺茶的方法，分享給每一位喝茶的人。
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-ink-muted">
        <dt>客服信箱</dt>
        <dd>
          <a href={`mailto:${BRAND.email}`} className="text-tea hover:underline">
            {BRAND.email}
          </a>
        </dd>
        {facts?.phone && (
          <>
            <dt>客服電話</dt>
            <dd className="tabular">{facts.phone}</dd>
          </>
        )}
        <dt>服務時間</dt>
        <dd>{BRAND.serviceHours}</dd>
      </dl>
    </>
  );
}

/**
 * The owner's facts at the foot of every page (console → 網站設定 → 頁尾與公司資訊): payment and
 * delivery marks, the company with its 統一編號, address and phone, the LINE and Facebook pages, and
 * 「Cookie 設定」. Its code loads when the footer comes near (site-footer.tsx); the server always
 * renders it into the page.
 */
function FooterFacts() {
  const facts = useFacts();
  if (!facts) return null;
  return (
    <>
      {facts.marks.length > 0 && (
        <Container className="flex flex-col gap-3 pb-8 sm:flex-row sm:gap-8">
          <Marks title="付款方式" group={PAYMENT_MARKS} shown={facts.marks} />
          <Marks title="配送方式" group={DELIVERY_MARKS} shown={facts.marks} />
        </Container>
      )}
      <div className="border-t border-line">
        <Container className="flex flex-col gap-2 py-5 text-xs text-ink-muted lg:flex-row lg:items-center lg:justify-between">
          <div>
            <p>
              © {new Date().getFullYear()} {facts.companyName} 版權所有
              {facts.taxId && <span className="ml-3 tabular">統一編號 {facts.taxId}</span>}
            </p>
            <p>{facts.address}</p>
          </div>
          <ul className="flex flex-wrap gap-x-5">
            {facts.lineUrl && (
              <li>
                <a href={facts.lineUrl} className={link} rel="noopener" target="_blank">
                  LINE 官方帳號
                </a>
              </li>
            )}
            {facts.facebookUrl && (
              <li>
                <a href={facts.facebookUrl} className={link} rel="noopener" target="_blank">
                  Facebook 粉絲專頁
                </a>
              </li>
            )}
            <li>
              <button
                type="button"
                onClick={openConsentSettings}
                className={`${link} underline underline-offset-4`}
              >
                Cookie 設定
              </button>
            </li>
          </ul>
        </Container>
      </div>
    </>
  );
}
