import { createJSONStorage, type PersistStorage } from 'zustand/middleware';

/**
 * The persisted stores' storage: the global `localStorage`. zustand's default reads
 * `window.localStorage`, and the server renderer has no window, so every write there warned in
 * the server's log; on the server `localStorage` is lib/server-storage.ts's storage that forgets.
 */
export function localJsonStorage<S>(): PersistStorage<S> | undefined {
  return createJSONStorage<S>(() => localStorage);
}
