// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';

// The server renderer's world: no window, storages only as lib/server-storage.ts shims them.
describe('the persisted stores on the server', () => {
  afterEach(() => vi.resetModules());

  it('take writes without a warning per write (the server renders every page with them)', async () => {
    expect(typeof window).toBe('undefined');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await import('../src/lib/server-storage.ts');
    const { useUserStore } = await import('../src/features/auth/stores/user-store.ts');
    const { useResetPasswordStore } = await import('../src/features/auth/stores/reset-password-store.ts');
    const { useCheckoutDraft } = await import('../src/features/checkout/draft-store.ts');
    useUserStore.getState().setUserInfo(null);
    useUserStore.getState().clearUserInfo();
    useResetPasswordStore.getState().setCurrentMail('a@example.com');
    useCheckoutDraft.getState().clear();
    expect(useResetPasswordStore.getState().currentMail).toBe('a@example.com');
    expect(warn).not.toHaveBeenCalled();
  });
});
