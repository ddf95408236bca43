import type { ComponentType } from 'react';
import type { RouteId } from '@shop/shared/routes';

export type PageModule = { default: ComponentType };
type Loader = () => Promise<PageModule>;

const placeholder: Loader = () => import('./placeholder.tsx');

/**
 * Which module renders each route of the shared route table. Every entry is its own lazy chunk;
 * a route still marked `placeholder` is owned by a later issue and says so on screen.
 */
export const PAGE_MODULES: Record<RouteId, Loader> = {
  landing: () => import('./landing.tsx'),
  home: placeholder,
  login: () => import('./auth/login.tsx'),
  register: () => import('./auth/register.tsx'),
  forgetPassword: () => import('./auth/forget-password.tsx'),
  forgetPasswordConfirm: () => import('./auth/forget-password-confirm.tsx'),
  resetPassword: () => import('./auth/reset-password.tsx'),
  resetPasswordSuccess: () => import('./auth/reset-password-success.tsx'),
  emailVerification: () => import('./auth/email-verification.tsx'),
  payComplete: () => import('./pay-complete.tsx'),
  serviceTerms: placeholder,
  privacyPolicy: placeholder,
  shipping: placeholder,
  shippingFee: placeholder,
  transport: placeholder,
  contact: placeholder,
  maintenance: placeholder,
  patentsAndTrademarks: placeholder,
  master: placeholder,
  faq: placeholder,
  team: placeholder,
  jobs: placeholder,
  media: placeholder,
  download: placeholder,
  mall: () => import('./mall/mall.tsx'),
  product: () => import('./mall/product.tsx'),
  cart: () => import('./cart.tsx'),
  payment: () => import('./payment.tsx'),
  masterDetail: placeholder,
  teamMember: placeholder,
  memberHome: () => import('./member/home.tsx'),
  membershipAndDiscounts: () => import('./member/membership.tsx'),
  orderList: () => import('./member/order-list.tsx'),
  orderDetail: () => import('./member/order-detail.tsx'),
  orderTracking: () => import('./member/order-tracking.tsx'),
  orderTrackingDetail: () => import('./member/order-tracking-detail.tsx'),
  memberResetPassword: () => import('./member/change-password.tsx'),
};

export const MEMBER_LAYOUT_MODULE: Loader = () => import('./member/member-layout.tsx');
