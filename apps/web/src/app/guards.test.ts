import { describe, expect, it, vi } from 'vitest';
import { guardRequest, redirectCheck } from './guards.ts';

async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('route guards in the client', () => {
  it('sends a signed-out visitor of a member page to /login with the way back', async () => {
    const error = await thrown(() =>
      guardRequest(new Request('http://x/cart?step=2'), { signedIn: false, resetPasswordAuth: false }),
    );
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).headers.get('Location')).toBe('/login?redirect=%2Fcart%3Fstep%3D2');
  });

  it('lets a signed-in visitor through and sends them away from /login', async () => {
    expect(
      await thrown(() =>
        guardRequest(new Request('http://x/cart'), { signedIn: true, resetPasswordAuth: false }),
      ),
    ).toBeUndefined();
    const error = (await thrown(() =>
      guardRequest(new Request('http://x/login'), { signedIn: true, resetPasswordAuth: false }),
    )) as Response;
    expect(error.headers.get('Location')).toBe('/');
  });
});

describe('redirect check (docs/product-rules.md#http-behaviour)', () => {
  it('renders the page when there is no redirect', async () => {
    const lookup = vi.fn(async () => ({ redirect: null }));
    await expect(redirectCheck('/mall/oolong', lookup)).resolves.toBeUndefined();
    expect(lookup).toHaveBeenCalledWith('/mall/oolong');
  });

  it('redirects inside the app for an internal target', async () => {
    const error = (await thrown(() =>
      redirectCheck('/mall/old', async () => ({ redirect: { target: '/mall/new', permanent: true } })),
    )) as Response;
    expect(error.status).toBe(302);
    expect(error.headers.get('Location')).toBe('/mall/new');
  });

  it('navigates the whole page for an absolute external target', async () => {
    const fullPage = vi.fn();
    const pending = redirectCheck(
      '/mall/old',
      async () => ({ redirect: { target: 'https://tea.example/x', permanent: false } }),
      fullPage,
    );
    await vi.waitFor(() => expect(fullPage).toHaveBeenCalledWith('https://tea.example/x'));
    const state = await Promise.race([
      pending.then(() => 'settled'),
      new Promise((r) => setTimeout(() => r('pending'), 20)),
    ]);
    expect(state).toBe('pending');
  });

  it('renders the page when the lookup fails', async () => {
    await expect(
      redirectCheck('/mall/x', async () => Promise.reject(new Error('offline'))),
    ).resolves.toBeUndefined();
  });
});
