import { useLayoutEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches, useNavigation } from 'react-router';
import { BRAND } from '@shop/shared/brand';
import { ToastViewport } from '../ui/toast.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { HydrationBoundary } from '../../lib/hydration.tsx';

export interface RouteHandle {
  /** zh-TW page title, also used for the document title. */
  title?: string;
  /** The layout a route renders in (docs/product-rules.md: the default layout is named `default`). */
  layout?: 'default';
}

/**
 * Sets the document title from the deepest route that names one, on every new path. A layout
 * effect, so it runs before any page's own (hooks/use-page-title.ts), which then wins.
 */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  const path = matches[matches.length - 1]?.pathname;
  useLayoutEffect(() => {
    document.title =
      title?.title && title.title !== '首頁'
        ? `${title.title}｜${BRAND.name}`
        : `${BRAND.name}｜${BRAND.tagline}`;
  }, [title?.title, path]);
}

function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  return (
    <div
      aria-hidden="true"
      className={`fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-amber transition-transform duration-500 ${busy ? 'scale-x-75' : 'scale-x-0'}`}
    />
  );
}

/** The layout named `default` (docs/product-rules.md): header, page, footer. The app's layout supplies what features know. */
export function DefaultLayout({ cartCount = 0, isLogin = false }: { cartCount?: number; isLogin?: boolean }) {
  useDocumentTitle();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-surface focus:px-4 focus:py-2"
      >
        跳到主要內容
      </a>
      <NavigationProgress />
      {/* The header hydrates with the layout, first; the page and the footer are parts React
          hydrates after it, each in slices of its own (lib/hydration.tsx). */}
      <SiteHeader cartCount={cartCount} isLogin={isLogin} />
      {/* At least a screen tall: the footer starts below the fold, so a page whose content arrives
          after its first paint never pushes a visible footer down (layout shift). */}
      <HydrationBoundary>
        <main id="main" className="min-h-dvh flex-1">
          <Outlet />
        </main>
      </HydrationBoundary>
      <HydrationBoundary>
        <SiteFooter />
      </HydrationBoundary>
      <ToastViewport />
      {/* Every first load in a tab has the history key "default", so by key alone a page opened by
          address would get the position of whichever page was loaded before it: key those by URL. */}
      <ScrollRestoration
        getKey={(location) =>
          location.key === 'default' ? `${location.pathname}${location.search}` : location.key
        }
      />
    </div>
  );
}
