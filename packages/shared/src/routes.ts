/**
 * The one route table of the product (docs/product-rules.md#routes-and-guards). The server uses it to answer 404 for paths
 * no page owns; the client builds its router and guards from it. No I/O, no dependencies.
 */

export type RouteAccess = 'public' | 'member';

export interface RouteDef {
  /** Stable id; the web app maps it to a lazily loaded page module. */
  readonly id: string;
  /** Path pattern: static segments and `:param` segments, always absolute. */
  readonly path: string;
  readonly access: RouteAccess;
  /** With a session, these send the visitor to `/` (docs/product-rules.md#routes-and-guards). */
  readonly guestOnly?: boolean;
  /** Member area children reachable only while resetPasswordAuth is true; otherwise they redirect to `/member`. */
  readonly needsResetPasswordAuth?: boolean;
  /** Page title in zh-TW, shown as the heading and in the document title. */
  readonly title: string;
  /**
   * The query parameters the page reads (besides `preview`, which every content page reads). A
   * page rendered for nobody in particular is rendered and kept once per value of these; any
   * other parameter (a tracking tag, a made-up one) is left out of its render.
   */
  readonly query?: readonly string[];
  /**
   * Every signed-in visitor sees this page alike, besides the header (signed in, cart count): its
   * server render is made once per URL and persona and shared (packages/shared/src/server-rendering.ts).
   * Only for pages whose data the API answers alike to anyone (no member's own data, no preview).
   */
  readonly sameForEveryMember?: boolean;
}

export const ROUTES = [
  { id: 'landing', path: '/', access: 'public', title: '首頁', sameForEveryMember: true },
  { id: 'home', path: '/home', access: 'public', title: '關於山嵐', sameForEveryMember: true },
  { id: 'login', path: '/login', access: 'public', guestOnly: true, title: '會員登入', query: ['redirect'] },
  { id: 'register', path: '/register', access: 'public', title: '註冊會員', query: ['redirect'] },
  { id: 'forgetPassword', path: '/forgetPassword', access: 'public', guestOnly: true, title: '忘記密碼' },
  {
    id: 'forgetPasswordConfirm',
    path: '/forgetPasswordConfirm',
    access: 'public',
    guestOnly: true,
    title: '請至信箱收信',
  },
  {
    id: 'resetPassword',
    path: '/resetPassword',
    access: 'public',
    guestOnly: true,
    title: '重設密碼',
    query: ['code'],
  },
  { id: 'resetPasswordSuccess', path: '/resetPasswordSuccess', access: 'public', title: '密碼已重設' },
  {
    id: 'emailVerification',
    path: '/emailVerification',
    access: 'public',
    title: '電子郵件驗證',
    query: ['code'],
  },
  { id: 'payComplete', path: '/payComplete', access: 'public', title: '付款結果', query: ['order'] },
  {
    id: 'serviceTerms',
    path: '/serviceTerms',
    access: 'public',
    title: '服務條款',
    sameForEveryMember: true,
  },
  {
    id: 'privacyPolicy',
    path: '/privacyPolicy',
    access: 'public',
    title: '隱私權政策',
    sameForEveryMember: true,
  },
  { id: 'shipping', path: '/shipping', access: 'public', title: '購物與配送須知', sameForEveryMember: true },
  { id: 'shippingFee', path: '/shippingFee', access: 'public', title: '運費說明', sameForEveryMember: true },
  { id: 'transport', path: '/transport', access: 'public', title: '運送方式', sameForEveryMember: true },
  {
    id: 'contact',
    path: '/contact',
    access: 'public',
    title: '聯絡我們',
    query: ['subject', 'job'],
    sameForEveryMember: true,
  },
  { id: 'maintenance', path: '/maintenance', access: 'public', title: '系統維護中' },
  {
    id: 'patentsAndTrademarks',
    path: '/patentsAndTrademarks',
    access: 'public',
    title: '專利與商標',
    sameForEveryMember: true,
  },
  { id: 'master', path: '/master', access: 'public', title: '茶師介紹' },
  { id: 'faq', path: '/faq', access: 'public', title: '常見問題', sameForEveryMember: true },
  { id: 'team', path: '/team', access: 'public', title: '團隊介紹' },
  { id: 'jobs', path: '/jobs', access: 'public', title: '人才招募', sameForEveryMember: true },
  {
    id: 'media',
    path: '/media',
    access: 'public',
    title: '媒體報導',
    query: ['type', 'page'],
    sameForEveryMember: true,
  },
  { id: 'download', path: '/download', access: 'public', title: '檔案下載', sameForEveryMember: true },

  {
    id: 'mall',
    path: '/mall',
    access: 'member',
    title: '線上商城',
    query: ['category', 'q', 'minPrice', 'maxPrice', 'inStock', 'sort', 'page'],
    sameForEveryMember: true,
  },
  {
    id: 'product',
    path: '/mall/:productId',
    access: 'member',
    title: '商品介紹',
    query: ['variant'],
    sameForEveryMember: true,
  },
  { id: 'cart', path: '/cart', access: 'member', title: '購物車' },
  { id: 'payment', path: '/payment', access: 'member', title: '結帳' },
  { id: 'masterDetail', path: '/master/:masterId', access: 'member', title: '茶師檔案' },
  { id: 'teamMember', path: '/team/:memberId', access: 'member', title: '團隊成員' },
  { id: 'memberHome', path: '/member', access: 'member', title: '會員中心' },
  {
    id: 'membershipAndDiscounts',
    path: '/member/membershipAndDiscounts',
    access: 'member',
    title: '會員等級與優惠',
  },
  { id: 'orderList', path: '/member/orderList', access: 'member', title: '訂單查詢' },
  { id: 'orderDetail', path: '/member/orderList/:orderId', access: 'member', title: '訂單明細' },
  { id: 'orderTracking', path: '/member/orderTracking', access: 'member', title: '配送追蹤' },
  { id: 'orderTrackingDetail', path: '/member/orderTracking/:orderId', access: 'member', title: '配送進度' },
  {
    id: 'memberResetPassword',
    path: '/member/resetPassword',
    access: 'member',
    needsResetPasswordAuth: true,
    title: '修改密碼',
  },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof ROUTES)[number]['id'];

/** The title of a page that is not there: a path no route owns, a product or person that does not exist (the 404 shell and the app). */
export const NOT_FOUND_TITLE = '找不到頁面';

/** Paths of the member layout's children, relative to `/member` (a parent layout, docs/product-rules.md#routes-and-guards). */
export const MEMBER_LAYOUT_PATH = '/member';

export interface RouteMatch {
  readonly route: RouteDef;
  readonly params: Readonly<Record<string, string>>;
}

function segments(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

const compiled = ROUTES.map((route) => ({ route: route as RouteDef, parts: segments(route.path) }));

/**
 * Finds the route that owns a pathname, or null. Matching is case-insensitive for static
 * segments and ignores a trailing slash, as the client router does.
 */
export function matchRoute(pathname: string): RouteMatch | null {
  const parts = segments(pathname);
  // Static routes win over parameterised ones, as in the client router.
  let best: RouteMatch | null = null;
  let bestScore = -1;
  for (const { route, parts: pattern } of compiled) {
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    for (let i = 0; i < pattern.length; i++) {
      const p = pattern[i]!;
      const s = parts[i]!;
      if (p.startsWith(':')) {
        let value: string;
        try {
          value = decodeURIComponent(s);
        } catch {
          ok = false;
          break;
        }
        params[p.slice(1)] = value;
      } else if (p.toLowerCase() === s.toLowerCase()) {
        score += 1;
      } else {
        ok = false;
        break;
      }
    }
    if (ok && score > bestScore) {
      best = { route, params };
      bestScore = score;
    }
  }
  return best;
}

export interface GuardState {
  /** The token cookie is present (the client sees its non-secret companion). */
  readonly signedIn: boolean;
  /** Reset-password store flag (docs/product-rules.md#client-stores). */
  readonly resetPasswordAuth: boolean;
}

export type GuardDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'redirect'; readonly to: string }
  | { readonly kind: 'not-found' };

export const LOGIN_PATH = '/login';
export const REDIRECT_PARAM = 'redirect';

/**
 * Decides what happens when a visitor opens a path (docs/product-rules.md#routes-and-guards).
 * `pathWithSearch` is remembered so sign-in can return the visitor where they were going.
 */
export function decideGuard(pathname: string, search: string, state: GuardState): GuardDecision {
  const match = matchRoute(pathname);
  if (!match) return { kind: 'not-found' };
  const { route } = match;
  if (state.signedIn && route.guestOnly) return { kind: 'redirect', to: '/' };
  if (!state.signedIn && route.access === 'member') {
    const back = pathname + search;
    return { kind: 'redirect', to: `${LOGIN_PATH}?${REDIRECT_PARAM}=${encodeURIComponent(back)}` };
  }
  if (route.needsResetPasswordAuth && !state.resetPasswordAuth) {
    return { kind: 'redirect', to: MEMBER_LAYOUT_PATH };
  }
  return { kind: 'allow' };
}

/**
 * Where to go after sign-in: the remembered path when it is a safe in-app path, else `/`.
 * Refuses protocol-relative and absolute URLs so the parameter cannot send a user off-site.
 * (The sign-in pages also keep console paths: `signInReturnPath` in sign-in-return.ts.)
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  const pathname = value.split(/[?#]/, 1)[0] ?? '/';
  const match = matchRoute(pathname);
  if (!match || match.route.guestOnly) return '/';
  return value;
}

/**
 * The address a page kept for others (nobody in particular, or every member alike) is rendered and kept under: its path and, sorted,
 * only the parameters it reads (RouteDef.query, and `preview`). `/faq?r=1` and `/faq?r=2` are one page.
 */
export function sharedPageUrl(pathname: string, search: string, route: RouteDef): string {
  const read = new Set([...(route.query ?? []), 'preview']);
  const kept = [...new URLSearchParams(search)]
    .filter(([key]) => read.has(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(kept).toString();
  return query ? `${pathname}?${query}` : pathname;
}
