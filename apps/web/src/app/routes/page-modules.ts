import type { ComponentType } from 'react';
import type { RouteId } from '@shop/shared/routes';

export type PageModule = { default: ComponentType };
type Loader = () => Promise<PageModule>;

/**
 * Which module renders each route of the shared route table. Every entry is its own lazy chunk.
 */
export const PAGE_MODULES: Record<RouteId, Loader> = {
  landing: () => import('./landing.tsx'),
  home: () => import('./content/company.tsx'),
  login: () => import('./auth/login.tsx'),
  register: () => import('./auth/register.tsx'),
  forgetPassword: () => import('./auth/forget-password.tsx'),
  forgetPasswordConfirm: () => import('./auth/forget-password-confirm.tsx'),
  resetPassword: () => import('./auth/reset-password.tsx'),
  resetPasswordSuccess: () => import('./auth/reset-password-success.tsx'),
  emailVerification: () => import('./auth/email-verification.tsx'),
  payComplete: () => import('./pay-complete.tsx'),
  serviceTerms: () => import('./content/text-page.tsx'),
  privacyPolicy: () => import('./content/text-page.tsx'),
  shipping: () => import('./content/text-page.tsx'),
  shippingFee: () => import('./content/shipping-fee.tsx'),
  transport: () => import('./content/text-page.tsx'),
  contact: () => import('./content/contact.tsx'),
  maintenance: () => import('./content/maintenance.tsx'),
  patentsAndTrademarks: () => import('./content/patents.tsx'),
  master: () => import('./content/people.tsx'),
  faq: () => import('./content/faq.tsx'),
  team: () => import('./content/people.tsx'),
  jobs: () => import('./content/jobs.tsx'),
  media: () => import('./content/media.tsx'),
  download: () => import('./content/downloads.tsx'),
  mall: () => import('./mall/mall.tsx'),
  product: () => import('./mall/product.tsx'),
  cart: () => import('./cart.tsx'),
  payment: () => import('./payment.tsx'),
  masterDetail: () => import('./content/people.tsx'),
  teamMember: () => import('./content/people.tsx'),
  memberHome: () => import('./member/home.tsx'),
  membershipAndDiscounts: () => import('./member/membership.tsx'),
  orderList: () => import('./member/order-list.tsx'),
  orderDetail: () => import('./member/order-detail.tsx'),
  orderTracking: () => import('./member/order-tracking.tsx'),
  orderTrackingDetail: () => import('./member/order-tracking-detail.tsx'),
  memberResetPassword: () => import('./member/change-password.tsx'),
};

export const MEMBER_LAYOUT_MODULE: Loader = () => import('./member/member-layout.tsx');
