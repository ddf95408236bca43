import type { ComponentType } from 'react';
import type { AdminRouteId } from '@shop/shared/admin-routes';

type Loader = () => Promise<{ default: ComponentType }>;

/** Which module renders each console page; each is its own chunk inside the console bundle. */
export const ADMIN_PAGES: Record<AdminRouteId, Loader> = {
  dashboard: () => import('./dashboard.tsx'),
  orders: () => import('./orders.tsx'),
  orderDetail: () => import('./order-detail.tsx'),
  packingSlip: () => import('./packing-slip.tsx'),
  products: () => import('./products.tsx'),
  productNew: () => import('./product-edit.tsx'),
  productEdit: () => import('./product-edit.tsx'),
  members: () => import('./members.tsx'),
  memberDetail: () => import('./member-detail.tsx'),
  coupons: () => import('./coupons.tsx'),
  couponNew: () => import('./coupon-edit.tsx'),
  couponEdit: () => import('./coupon-edit.tsx'),
  tiers: () => import('./tiers.tsx'),
  content: () => import('./content.tsx'),
  contentList: () => import('./content-list.tsx'),
  contentEdit: () => import('./content-edit.tsx'),
  messages: () => import('./messages.tsx'),
  redirects: () => import('./redirects.tsx'),
  settings: () => import('./settings.tsx'),
  staff: () => import('./staff.tsx'),
  audit: () => import('./audit.tsx'),
};
