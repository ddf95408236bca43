import {
  ANALYTICS_PROVIDERS,
  configuredProviders,
  type AnalyticsIds,
  type AnalyticsProvider,
} from '@shop/shared/analytics-providers';
import type { ConsentChoice } from './consent-storage.ts';
import type { ShopEvent } from '../../lib/shop-events.ts';
import { ga4Call, lineCall, metaCall } from './event-mapping.ts';

/**
 * Loads each configured provider's official script once its category is consented to, and hands
 * it the shop's moments (event-mapping.ts). The queue functions each provider's base code defines
 * (gtag's dataLayer, fbq, _lt) are defined here, in our own code, so the content security policy
 * needs no inline script. Nothing is loaded or sent for a provider without its consent.
 */
type Fn = (...args: unknown[]) => void;
interface ProviderWindow {
  dataLayer?: unknown[];
  gtag?: Fn;
  fbq?: Fn & { queue?: unknown[]; callMethod?: Fn; loaded?: boolean; version?: string; push?: Fn };
  _fbq?: unknown;
  _lt?: Fn;
  _ltq?: unknown[];
}
const w = () => window as unknown as ProviderWindow;

const started = new Set<AnalyticsProvider>();

function addScript(src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

function startGa4(id: string): void {
  const win = w();
  win.dataLayer = win.dataLayer ?? [];
  // gtag.js reads the arguments objects its queue holds, as its base code pushes them.
  win.gtag = function gtag() {
    // eslint-disable-next-line prefer-rest-params
    win.dataLayer!.push(arguments);
  };
  win.gtag('js', new Date());
  win.gtag('config', id);
  addScript(ANALYTICS_PROVIDERS.ga4.scriptUrl(id));
}

function startMeta(id: string): void {
  const win = w();
  if (!win.fbq) {
    const fbq = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue.push(args);
    } as Fn & { queue: unknown[]; callMethod?: Fn; loaded: boolean; version: string; push: Fn };
    fbq.queue = [];
    fbq.loaded = true;
    fbq.version = '2.0';
    fbq.push = fbq;
    win.fbq = fbq;
    win._fbq ??= fbq;
  }
  win.fbq('init', id);
  win.fbq('track', 'PageView');
  addScript(ANALYTICS_PROVIDERS.meta.scriptUrl(id));
}

function startLine(tagId: string): void {
  const win = w();
  win._ltq = win._ltq ?? [];
  win._lt =
    win._lt ??
    function lt() {
      // eslint-disable-next-line prefer-rest-params
      win._ltq!.push(arguments);
    };
  win._lt('init', { customerType: 'lap', tagId });
  win._lt('send', 'pv', [tagId]);
  addScript(ANALYTICS_PROVIDERS.line.scriptUrl(tagId));
}

/** The providers the visitor's choice allows, of those configured. */
export function allowedProviders(ids: AnalyticsIds, choice: ConsentChoice | null): AnalyticsProvider[] {
  if (!choice) return [];
  return configuredProviders(ids).filter((p) => choice[ANALYTICS_PROVIDERS[p].category]);
}

/** Starts every allowed provider not started yet on this page. */
export function startProviders(ids: AnalyticsIds, choice: ConsentChoice | null): void {
  for (const provider of allowedProviders(ids, choice)) {
    if (started.has(provider)) continue;
    started.add(provider);
    const id = ids[ANALYTICS_PROVIDERS[provider].idField];
    if (provider === 'ga4') startGa4(id);
    else if (provider === 'meta') startMeta(id);
    else startLine(id);
  }
}

/** Whether a provider the new choice no longer allows was started on this page (then only a reload stops it). */
export function startedBeyond(ids: AnalyticsIds, choice: ConsentChoice): boolean {
  const allowed = new Set(allowedProviders(ids, choice));
  return [...started].some((p) => !allowed.has(p));
}

/** Orders whose purchase was sent from this browser: a reload of the completion page sends none again. */
const SENT_KEY = 'shop.analytics.purchases';
const SENT_MAX = 50;

function alreadySent(orderNo: string): boolean {
  try {
    const sent = JSON.parse(localStorage.getItem(SENT_KEY) ?? '[]') as unknown;
    if (Array.isArray(sent) && sent.includes(orderNo)) return true;
    const next = [...(Array.isArray(sent) ? sent : []), orderNo].slice(-SENT_MAX);
    localStorage.setItem(SENT_KEY, JSON.stringify(next));
    return false;
  } catch {
    return false;
  }
}

/** Hands a moment to every started provider the choice still allows. */
export function sendShopEvent(ids: AnalyticsIds, choice: ConsentChoice | null, event: ShopEvent): void {
  const to = allowedProviders(ids, choice).filter((p) => started.has(p));
  if (to.length === 0) return;
  if (event.name === 'purchase' && alreadySent(event.orderNo)) return;
  const win = w();
  for (const provider of to) {
    if (provider === 'ga4') win.gtag?.(...ga4Call(event));
    else if (provider === 'meta') win.fbq?.(...metaCall(event));
    else win._lt?.(...lineCall(event, ids.lineTagId));
  }
}
