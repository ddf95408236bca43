import { createStore, useStore } from 'zustand';
import { persist } from 'zustand/middleware';
import { localJsonStorage } from '../../../lib/local-storage.ts';
import type { CurrentUser } from '@shop/shared/auth';
import { hasSessionCookie } from '../../../lib/cookies.ts';

/**
 * The user store, persisted (docs/product-rules.md#client-stores). The token is never here: it lives in an HttpOnly cookie.
 * `isLogin` is derived from userInfo having a uid.
 */
export interface UserState {
  userInfo: CurrentUser | null;
  providers: string[];
  setUserInfo(user: CurrentUser | null): void;
  clearUserInfo(): void;
}

const userStore = createStore<UserState>()(
  persist(
    (set) => ({
      userInfo: null,
      providers: [],
      setUserInfo: (user) => set({ userInfo: user, providers: user?.providers ?? [] }),
      clearUserInfo: () => set({ userInfo: null, providers: [] }),
    }),
    {
      name: 'user',
      version: 1,
      storage: localJsonStorage(),
      partialize: (s) => ({ userInfo: s.userInfo, providers: s.providers }),
    },
  ),
);
/** On the server: the user state of the request being rendered (entry-server.tsx installs the source). */
let serverUser: () => UserState | undefined = () => undefined;

/** For entry-server.tsx: where the user state of the page being rendered is read (its request's scope). */
export function setServerUserSource(source: () => UserState | undefined): void {
  serverUser = source;
}

/** The store's state with `user` signed in (null: nobody), for a page rendered on the server. */
export function userStateFor(user: CurrentUser | null): UserState {
  return { ...userStore.getState(), userInfo: user, providers: user?.providers ?? [] };
}

// While rendering on the server and while hydrating, zustand hands components the state a store was
// created with (React's server snapshot), so a member's page was drawn signed out (「登入」 in the
// header) and then redrawn. On the server that snapshot is the member of the request being
// rendered (renders overlap, so it is never the store's own state); in the browser it is the
// current state, set from the page's state before hydration (boot.tsx): both draw the same page.
userStore.getInitialState = () => serverUser() ?? userStore.getState();

/** The user store as a hook (`useUserStore(selector)`) with the store's own methods (`getState`, `setState`, …). */
export const useUserStore = Object.assign(
  <T>(selector: (state: UserState) => T): T => useStore(userStore, selector),
  userStore,
);

export const selectIsLogin = (state: Pick<UserState, 'userInfo'>): boolean => Boolean(state.userInfo?.uid);

export function useIsLogin(): boolean {
  return useUserStore(selectIsLogin);
}

/** Whether this tab takes itself to be signed in: a user in the store, or the session hint cookie. */
export function believesSignedIn(): boolean {
  return Boolean(useUserStore.getState().userInfo) || hasSessionCookie();
}
