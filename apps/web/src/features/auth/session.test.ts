import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet, setUnauthorizedHandler, signOutDone, signOutStarted } from '../../lib/api-client.ts';
import { handleSessionEnded, requiresSignIn, signInReturnPath } from './session.ts';
import { useUserStore } from './stores/user-store.ts';

const member = {
  uid: 'u1',
  email: 'tea@example.com',
  displayName: '王小茶',
  emailVerified: true,
  providers: ['password'],
};

describe('a session that ended elsewhere', () => {
  beforeEach(() => {
    document.cookie = 'signed_in=; Max-Age=0; Path=/';
    useUserStore.getState().clearUserInfo();
  });

  it('sends a member page to /login with the way back, even when the user store is already empty', () => {
    const navigate = vi.fn();
    handleSessionEnded({ pathname: '/member/orderList', search: '?status=paid' }, navigate);
    expect(navigate).toHaveBeenCalledWith(
      `/login?redirect=${encodeURIComponent('/member/orderList?status=paid')}`,
    );
  });

  it('sends a tab that believed it was signed in to /login from a public page, and forgets the user', () => {
    useUserStore.getState().setUserInfo(member);
    const navigate = vi.fn();
    handleSessionEnded({ pathname: '/faq', search: '' }, navigate);
    expect(navigate).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/faq')}`);
    expect(useUserStore.getState().userInfo).toBeNull();
  });

  it('leaves an anonymous visitor of a public page where they are', () => {
    const navigate = vi.fn();
    handleSessionEnded({ pathname: '/faq', search: '' }, navigate);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('counts the console and the member pages as needing sign-in', () => {
    expect(requiresSignIn('/admin/orders')).toBe(true);
    expect(requiresSignIn('/member')).toBe(true);
    expect(requiresSignIn('/mall/dong-ding')).toBe(true);
    expect(requiresSignIn('/faq')).toBe(false);
  });
});

describe('a deliberate sign-out', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    signOutDone();
    vi.unstubAllGlobals();
  });

  it('does not treat the 401 of a request sent before it as a lost session', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    let answer: (res: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = apiGet('/api/orders').catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    signOutStarted();
    signOutDone();
    answer(
      new Response(JSON.stringify({ error: { code: 'unauthenticated', message: '請先登入會員。' } }), {
        status: 401,
      }),
    );
    expect(await pending).toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('where signing in leads', () => {
  it('keeps console paths, so staff signing in from /admin go back to the console', () => {
    expect(signInReturnPath('/admin')).toBe('/admin');
    expect(signInReturnPath('/admin/orders?status=paid')).toBe('/admin/orders?status=paid');
    expect(signInReturnPath('/admin/products/70cf110f-b5e4-4c3e-ac22-284773e01ba1')).toBe(
      '/admin/products/70cf110f-b5e4-4c3e-ac22-284773e01ba1',
    );
  });
  it('keeps the shop’s own paths as safeReturnPath does', () => {
    expect(signInReturnPath('/mall?category=oolong')).toBe('/mall?category=oolong');
    expect(signInReturnPath('/member/orderList/TW1')).toBe('/member/orderList/TW1');
  });
  it('refuses off-site, unknown, guest-only and disguised targets', () => {
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/admin/../login',
      '/admin/..//evil.example',
      '/admin//evil.example',
      '/administrator',
      '/admin.evil',
      '/login',
      '',
      null,
      undefined,
    ]) {
      expect(signInReturnPath(bad), String(bad)).toBe('/');
    }
  });
});
