import type { ComponentType } from 'react';
import { ChunkFailedPage } from '../components/errors/route-error.tsx';
import { ChunkLoadError, withChunkReload, type ChunkReloadDeps } from './reload-guard.ts';

export type PageModule = { default: ComponentType };

/**
 * A page module's loader with the shop's failed-chunk rule: the first failure reloads the page
 * (once per path per 10 s, see reload-guard.ts); a page that still cannot load after that reload
 * renders the 500 page itself, because the router does not reliably show an error boundary for a
 * lazy import that fails during the first page load.
 */
export function loadPageModule(
  load: () => Promise<PageModule>,
  deps?: ChunkReloadDeps,
): () => Promise<PageModule> {
  const guarded = withChunkReload(load, deps);
  return async () => {
    try {
      return await guarded();
    } catch (error) {
      if (error instanceof ChunkLoadError) return { default: ChunkFailedPage };
      throw error;
    }
  };
}

/** The shop router's form: a route's `lazy` that resolves to its Component. */
export function lazyPage(load: () => Promise<PageModule>) {
  const loadPage = loadPageModule(load);
  return async () => ({ Component: (await loadPage()).default });
}
