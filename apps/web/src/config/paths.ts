import { LOGIN_PATH, REDIRECT_PARAM } from '@shop/shared/routes';

/** `path` with the given query values, each encoded; empty ones are left out. */
function withQuery(path: string, query: Readonly<Record<string, string | undefined>> = {}): string {
  const params = new URLSearchParams(
    Object.entries(query).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** Every in-app URL with a builder, so no component writes a path (or encodes a value) by hand. */
export const paths = {
  landing: () => '/',
  home: () => '/home',
  login: (returnTo?: string) =>
    returnTo ? `${LOGIN_PATH}?${REDIRECT_PARAM}=${encodeURIComponent(returnTo)}` : LOGIN_PATH,
  register: () => '/register',
  forgetPassword: () => '/forgetPassword',
  forgetPasswordConfirm: () => '/forgetPasswordConfirm',
  resetPassword: () => '/resetPassword',
  resetPasswordSuccess: () => '/resetPasswordSuccess',
  emailVerification: () => '/emailVerification',
  payComplete: (orderNo?: string) => withQuery('/payComplete', { order: orderNo }),
  serviceTerms: () => '/serviceTerms',
  privacyPolicy: () => '/privacyPolicy',
  shipping: () => '/shipping',
  shippingFee: () => '/shippingFee',
  transport: () => '/transport',
  contact: (query?: { subject?: string; job?: string }) => withQuery('/contact', query),
  maintenance: () => '/maintenance',
  patentsAndTrademarks: () => '/patentsAndTrademarks',
  master: () => '/master',
  masterDetail: (id: string) => `/master/${encodeURIComponent(id)}`,
  faq: () => '/faq',
  team: () => '/team',
  teamMember: (id: string) => `/team/${encodeURIComponent(id)}`,
  jobs: () => '/jobs',
  media: () => '/media',
  download: () => '/download',
  mall: (query?: { q?: string; category?: string }) => withQuery('/mall', query),
  product: (id: string) => `/mall/${encodeURIComponent(id)}`,
  cart: () => '/cart',
  payment: () => '/payment',
  member: () => '/member',
  membershipAndDiscounts: () => '/member/membershipAndDiscounts',
  orderList: () => '/member/orderList',
  orderDetail: (id: string) => `/member/orderList/${encodeURIComponent(id)}`,
  orderTracking: () => '/member/orderTracking',
  orderTrackingDetail: (id: string) => `/member/orderTracking/${encodeURIComponent(id)}`,
  memberResetPassword: () => '/member/resetPassword',
} as const;
