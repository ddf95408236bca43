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
  login: placeholder,
  register: placeholder,
  forgetPassword: placeholder,
  forgetPasswordConfirm: placeholder,
  resetPassword: placeholder,
  resetPasswordSuccess: placeholder,
  emailVerification: placeholder,
  payComplete: placeholder,
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
  mall: placeholder,
  product: placeholder,
  cart: placeholder,
  payment: placeholder,
  masterDetail: placeholder,
  teamMember: placeholder,
  memberHome: placeholder,
  membershipAndDiscounts: placeholder,
  orderList: placeholder,
  orderDetail: placeholder,
  orderTracking: placeholder,
  orderTrackingDetail: placeholder,
  memberResetPassword: placeholder,
};

export const MEMBER_LAYOUT_MODULE: Loader = () => import('./member/member-layout.tsx');
