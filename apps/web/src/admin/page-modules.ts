import { lazy, type ComponentType } from 'react';
import type { AdminRouteId } from '@shop/shared/admin-routes';
import { loadPageModule, type PageModule } from '../lib/lazy-page.ts';
import type { ChunkReloadDeps } from '../lib/reload-guard.ts';

type Loader = () => Promise<PageModule>;

/** Which module renders each console page; each is its own chunk inside the console bundle. */
export const ADMIN_PAGES: Record<AdminRouteId, Loader> = {
  dashboard: () => import('./dashboard/pages/dashboard.tsx'),
  orders: () => import('./orders/pages/orders.tsx'),
  orderDetail: () => import('./orders/pages/order-detail.tsx'),
  returns: () => import('./returns/pages/returns.tsx'),
  packingSlip: () => import('./orders/pages/packing-slip.tsx'),
  products: () => import('./products/pages/products.tsx'),
  productNew: () => import('./products/pages/product-edit.tsx'),
  productEdit: () => import('./products/pages/product-edit.tsx'),
  members: () => import('./members/pages/members.tsx'),
  memberDetail: () => import('./members/pages/member-detail.tsx'),
  coupons: () => import('./coupons/pages/coupons.tsx'),
  couponNew: () => import('./coupons/pages/coupon-edit.tsx'),
  couponEdit: () => import('./coupons/pages/coupon-edit.tsx'),
  tiers: () => import('./members/pages/tiers.tsx'),
  content: () => import('./content/pages/content.tsx'),
  contentList: () => import('./content/pages/content-list.tsx'),
  contentEdit: () => import('./content/pages/content-edit.tsx'),
  messages: () => import('./messages/pages/messages.tsx'),
  outbox: () => import('./outbox/pages/outbox.tsx'),
  redirects: () => import('./redirects/pages/redirects.tsx'),
  settings: () => import('./settings/pages/settings.tsx'),
  staff: () => import('./staff/pages/staff.tsx'),
  audit: () => import('./audit/pages/audit.tsx'),
};

/**
 * The console's pages as lazy components. A page whose chunk fails to load reloads the page once,
 * then shows the 500 page, exactly as the shop's routes do (lib/lazy-page.ts).
 */
export function consolePages(
  loaders: Record<AdminRouteId, () => Promise<PageModule>>,
  deps?: ChunkReloadDeps,
): Record<AdminRouteId, ComponentType> {
  return Object.fromEntries(
    Object.entries(loaders).map(([id, load]) => [id, lazy(loadPageModule(load, deps))]),
  ) as unknown as Record<AdminRouteId, ComponentType>;
}
