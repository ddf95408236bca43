import type { Permission } from './admin.ts';

/**
 * The operations console's pages under /admin (its own lazily loaded bundle). The server answers
 * 200 for these paths and 404 for other /admin paths; the console builds its router from them.
 */
export interface AdminRouteDef {
  readonly id: string;
  readonly path: string;
  readonly title: string;
  /** What the signed-in staff member needs to open the page. */
  readonly permission: Permission;
  /** Shown in the side navigation, in this order. */
  readonly nav?: boolean;
}

export const ADMIN_ROUTES = [
  { id: 'dashboard', path: '/admin', title: '總覽', permission: 'dashboard.read', nav: true },
  { id: 'orders', path: '/admin/orders', title: '訂單', permission: 'orders.read', nav: true },
  { id: 'orderDetail', path: '/admin/orders/:orderNo', title: '訂單明細', permission: 'orders.read' },
  { id: 'returns', path: '/admin/returns', title: '退貨與退款', permission: 'orders.read', nav: true },
  {
    id: 'packingSlip',
    path: '/admin/orders/:orderNo/packing-slip',
    title: '出貨單',
    permission: 'orders.read',
  },
  { id: 'products', path: '/admin/products', title: '商品', permission: 'products.read', nav: true },
  { id: 'productNew', path: '/admin/products/new', title: '新增商品', permission: 'products.write' },
  { id: 'productEdit', path: '/admin/products/:productId', title: '編輯商品', permission: 'products.read' },
  { id: 'members', path: '/admin/members', title: '會員', permission: 'members.read', nav: true },
  { id: 'memberDetail', path: '/admin/members/:memberId', title: '會員資料', permission: 'members.read' },
  { id: 'coupons', path: '/admin/coupons', title: '優惠券', permission: 'coupons.read', nav: true },
  { id: 'couponNew', path: '/admin/coupons/new', title: '新增優惠券', permission: 'coupons.write' },
  { id: 'couponEdit', path: '/admin/coupons/:couponId', title: '編輯優惠券', permission: 'coupons.read' },
  { id: 'tiers', path: '/admin/tiers', title: '會員等級', permission: 'coupons.read', nav: true },
  { id: 'content', path: '/admin/content', title: '網站內容', permission: 'content.read', nav: true },
  { id: 'contentList', path: '/admin/content/:kind', title: '網站內容', permission: 'content.read' },
  { id: 'contentEdit', path: '/admin/content/:kind/:slug', title: '編輯內容', permission: 'content.read' },
  { id: 'messages', path: '/admin/messages', title: '客服來信', permission: 'messages.read', nav: true },
  { id: 'outbox', path: '/admin/outbox', title: '寄送狀態', permission: 'outbox.read', nav: true },
  { id: 'redirects', path: '/admin/redirects', title: '轉址', permission: 'redirects.read', nav: true },
  { id: 'settings', path: '/admin/settings', title: '網站設定', permission: 'settings.read', nav: true },
  { id: 'staff', path: '/admin/staff', title: '管理員帳號', permission: 'staff.write', nav: true },
  { id: 'audit', path: '/admin/audit', title: '操作紀錄', permission: 'audit.read', nav: true },
] as const satisfies readonly AdminRouteDef[];

export type AdminRouteId = (typeof ADMIN_ROUTES)[number]['id'];

const compiled = ADMIN_ROUTES.map((r) => ({
  route: r as AdminRouteDef,
  parts: r.path.split('/').filter(Boolean),
}));

/** The console page that owns a pathname, or null (static segments beat parameters). */
export function matchAdminRoute(
  pathname: string,
): { route: AdminRouteDef; params: Record<string, string> } | null {
  const parts = pathname.split('/').filter(Boolean);
  let best: { route: AdminRouteDef; params: Record<string, string>; score: number } | null = null;
  for (const { route, parts: pattern } of compiled) {
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const p = pattern[i]!;
      const s = parts[i]!;
      if (p.startsWith(':')) {
        try {
          params[p.slice(1)] = decodeURIComponent(s);
        } catch {
          ok = false;
        }
      } else if (p === s) score += 1;
      else ok = false;
    }
    if (ok && (!best || score > best.score)) best = { route, params, score };
  }
  return best ? { route: best.route, params: best.params } : null;
}

/** The console's root path; every console page lies under it. */
export const ADMIN_BASE = '/admin';

/** A route's path below the console root, as a nested router wants it ('' for the root itself). */
export const adminRelativePath = (path: string) =>
  path === ADMIN_BASE ? '' : path.slice(ADMIN_BASE.length + 1);

/** Fills a pattern's `:params` in order: fillAdminPath('/admin/orders/:orderNo', ['TW1']). */
function fillAdminPath(pattern: string, values: ReadonlyArray<string | number>): string {
  let i = 0;
  return pattern.replace(/:([a-zA-Z]+)/g, () => encodeURIComponent(String(values[i++] ?? '')));
}

type AdminRoute = (typeof ADMIN_ROUTES)[number];
/** A pattern's parameter names, in order: '/admin/content/:kind/:slug' → ['kind', 'slug']. */
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamsOf<Rest>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : [];
type ValuesFor<Names extends readonly string[]> = { [K in keyof Names]: string | number };
type PathBuilder<P extends string> = (...values: ValuesFor<ParamsOf<P>>) => string;

/**
 * Every console link, built from the route table so links and routes cannot disagree:
 * adminPath.orderDetail('TW20261122000001'), adminPath.contentEdit('faq', 'new'), adminPath.orders().
 * Values are URL-encoded; a query string is added by the caller.
 */
export const adminPath = Object.fromEntries(
  ADMIN_ROUTES.map((r) => [r.id, (...values: Array<string | number>) => fillAdminPath(r.path, values)]),
) as {
  readonly [R in AdminRoute as R['id']]: PathBuilder<R['path']>;
};
