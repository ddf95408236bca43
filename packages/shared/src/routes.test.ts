import { describe, expect, it } from 'vitest';
import { sharedPageUrl, decideGuard, matchRoute, ROUTES, safeReturnPath } from './routes.ts';

/** The public paths of docs/product-rules.md#routes-and-guards, written out here independently of the table. */
const SPEC_PUBLIC = [
  '/',
  '/home',
  '/login',
  '/register',
  '/forgetPassword',
  '/forgetPasswordConfirm',
  '/resetPassword',
  '/resetPasswordSuccess',
  '/emailVerification',
  '/payComplete',
  '/serviceTerms',
  '/privacyPolicy',
  '/shipping',
  '/shippingFee',
  '/transport',
  '/contact',
  '/maintenance',
  '/patentsAndTrademarks',
  '/master',
  '/faq',
  '/team',
  '/jobs',
  '/media',
  '/download',
];
const SPEC_MEMBER = [
  '/mall',
  '/mall/:productId',
  '/cart',
  '/payment',
  '/master/:masterId',
  '/team/:memberId',
  '/member',
  '/member/membershipAndDiscounts',
  '/member/orderList',
  '/member/orderList/:orderId',
  '/member/orderTracking',
  '/member/orderTracking/:orderId',
  '/member/resetPassword',
];
const GUEST_ONLY = ['/login', '/forgetPassword', '/forgetPasswordConfirm', '/resetPassword'];

const concrete = (pattern: string) => pattern.replace(/:[a-zA-Z]+/g, 'abc-123');

describe('route table', () => {
  it("holds exactly the routes of the product's route table (docs/product-rules.md#routes-and-guards)", () => {
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_PUBLIC, ...SPEC_MEMBER].sort());
    expect(
      ROUTES.filter((r) => r.access === 'public')
        .map((r) => r.path)
        .sort(),
    ).toEqual([...SPEC_PUBLIC].sort());
  });

  it('matches static segments case-insensitively, ignores a trailing slash and extracts params', () => {
    expect(matchRoute('/mall/oolong-75g')?.route.id).toBe('product');
    expect(matchRoute('/mall/oolong-75g')?.params).toEqual({ productId: 'oolong-75g' });
    expect(matchRoute('/MALL/')?.route.id).toBe('mall');
    expect(matchRoute('/member/orderList/TW1')?.params).toEqual({ orderId: 'TW1' });
    expect(matchRoute('/mall/%E7%83%8F%E9%BE%8D')?.params).toEqual({ productId: '烏龍' });
  });

  it('finds no route for unknown or over-long paths', () => {
    expect(matchRoute('/no/such/page')).toBeNull();
    expect(matchRoute('/mall/a/b')).toBeNull();
    expect(matchRoute('/member/unknown')).toBeNull();
    expect(matchRoute('/mall/%E0%A4%A')).toBeNull();
  });
});

describe('guard table: every route × signed in / signed out', () => {
  for (const route of ROUTES) {
    const path = concrete(route.path);
    it(`${route.path} signed out`, () => {
      const decision = decideGuard(path, '?x=1', { signedIn: false, resetPasswordAuth: false });
      if (route.access === 'public') expect(decision).toEqual({ kind: 'allow' });
      else
        expect(decision).toEqual({
          kind: 'redirect',
          to: `/login?redirect=${encodeURIComponent(`${path}?x=1`)}`,
        });
    });
    it(`${route.path} signed in`, () => {
      const decision = decideGuard(path, '', { signedIn: true, resetPasswordAuth: false });
      if (GUEST_ONLY.includes(route.path)) expect(decision).toEqual({ kind: 'redirect', to: '/' });
      else if (route.path === '/member/resetPassword')
        expect(decision).toEqual({ kind: 'redirect', to: '/member' });
      else expect(decision).toEqual({ kind: 'allow' });
    });
  }

  it('/member/resetPassword opens only while resetPasswordAuth is true', () => {
    expect(decideGuard('/member/resetPassword', '', { signedIn: true, resetPasswordAuth: true })).toEqual({
      kind: 'allow',
    });
    expect(decideGuard('/member/resetPassword', '', { signedIn: false, resetPasswordAuth: true }).kind).toBe(
      'redirect',
    );
  });

  it('an unknown path is not found whether or not the visitor is signed in', () => {
    expect(decideGuard('/that/path', '', { signedIn: false, resetPasswordAuth: false })).toEqual({
      kind: 'not-found',
    });
    expect(decideGuard('/that/path', '', { signedIn: true, resetPasswordAuth: false })).toEqual({
      kind: 'not-found',
    });
  });
});

describe('safeReturnPath', () => {
  it('keeps in-app paths with their query', () => {
    expect(safeReturnPath('/mall?category=oolong')).toBe('/mall?category=oolong');
    expect(safeReturnPath('/member/orderList/TW1')).toBe('/member/orderList/TW1');
  });
  it('refuses off-site, unknown and guest-only targets', () => {
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'mall',
      '/no/such',
      '/login',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(bad)).toBe('/');
    }
  });
});

describe('the address a page for nobody is kept under', () => {
  const route = (id: string) => ROUTES.find((r) => r.id === id)!;
  it('keeps only the parameters the page reads, sorted, and preview', () => {
    expect(sharedPageUrl('/faq', '?r=1&utm_source=line', route('faq'))).toBe('/faq');
    expect(sharedPageUrl('/media', '?r=2&type=video&page=2', route('media'))).toBe(
      '/media?page=2&type=video',
    );
    expect(sharedPageUrl('/contact', '?job=tea-master&subject=%E6%87%89%E5%BE%B5', route('contact'))).toBe(
      '/contact?job=tea-master&subject=%E6%87%89%E5%BE%B5',
    );
    expect(sharedPageUrl('/login', '?redirect=%2Fmall%3Fq%3Dx&x=1', route('login'))).toBe(
      '/login?redirect=%2Fmall%3Fq%3Dx',
    );
    expect(sharedPageUrl('/faq', '?preview=1', route('faq'))).toBe('/faq?preview=1');
    expect(sharedPageUrl('/faq', '', route('faq'))).toBe('/faq');
  });
});
