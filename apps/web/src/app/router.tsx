import {
  createBrowserRouter,
  matchRoutes,
  type HydrationState,
  type LoaderFunction,
  type RouteObject,
} from 'react-router';
import {
  MEMBER_LAYOUT_PATH,
  NOT_FOUND_TITLE,
  ROUTES,
  type RouteDef,
  type RouteId,
} from '@shop/shared/routes';
import { PageSkeleton } from '../components/page-skeleton.tsx';
import type { RouteHandle } from '../components/layouts/default-layout.tsx';
import { AppLayout } from './app-layout.tsx';
import { NotFoundRoute, RouteError } from '../components/errors/route-error.tsx';
import { lazyPage } from '../lib/lazy-page.ts';
import { setPendingLocationSource } from '../lib/reload-guard.ts';
import { guardLoader, productLoader } from './guards.ts';
import { MEMBER_LAYOUT_MODULE, PAGE_MODULES } from './routes/page-modules.ts';

/** Route loaders beyond the guard: the product page runs the redirect check first (docs/product-rules.md#routes-and-guards). */
const LOADERS: Partial<Record<RouteId, LoaderFunction>> = { product: productLoader };

function toRoute(def: RouteDef, path: string): RouteObject {
  const id = def.id as RouteId;
  return {
    id,
    path,
    loader: LOADERS[id] ?? guardLoader,
    lazy: lazyPage(PAGE_MODULES[id]),
    handle: { title: def.title, layout: 'default' } satisfies RouteHandle,
    HydrateFallback: PageSkeleton,
    errorElement: <RouteError />,
  };
}

/** Builds the router's tree from the shared route table: member children sit under /member. */
export function buildRoutes(): RouteObject[] {
  const memberPrefix = `${MEMBER_LAYOUT_PATH}/`;
  const top = ROUTES.filter((r) => r.path !== MEMBER_LAYOUT_PATH && !r.path.startsWith(memberPrefix));
  const memberHome = ROUTES.find((r) => r.path === MEMBER_LAYOUT_PATH);
  const memberChildren = ROUTES.filter((r) => r.path.startsWith(memberPrefix));
  if (!memberHome) throw new Error('route table has no member home');

  const memberLayout: RouteObject = {
    id: 'memberLayout',
    path: MEMBER_LAYOUT_PATH,
    loader: guardLoader,
    lazy: lazyPage(MEMBER_LAYOUT_MODULE),
    HydrateFallback: PageSkeleton,
    errorElement: <RouteError />,
    children: [
      { ...toRoute(memberHome, ''), path: undefined, index: true } as RouteObject,
      ...memberChildren.map((r) => toRoute(r, r.path.slice(memberPrefix.length))),
    ],
  };

  // The operations console: its own lazily loaded bundle with its own layout and routes. Never
  // rendered on the server (its pages are sent as the shell), so the server's build leaves it out.
  const admin: RouteObject = {
    id: 'admin',
    path: '/admin/*',
    ...(import.meta.env.SSR ? {} : { lazy: lazyPage(() => import('../admin/admin-app.tsx')) }),
    HydrateFallback: PageSkeleton,
    errorElement: <RouteError />,
  };

  return [
    admin,
    {
      id: 'default',
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [
        {
          errorElement: <RouteError />,
          children: [
            ...top.map((r) => toRoute(r, r.path)),
            memberLayout,
            { path: '*', element: <NotFoundRoute />, handle: { title: NOT_FOUND_TITLE } },
          ],
        },
      ],
    },
  ];
}

/**
 * A page the server rendered hydrates only once its code is here: the routes matching the URL get
 * their lazily loaded modules before the router starts (otherwise it would show the loading
 * skeleton over the server's page).
 */
export async function loadMatchedRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

export function createAppRouter(routes: RouteObject[] = buildRoutes(), hydrationData?: HydrationState) {
  const router = createBrowserRouter(routes, hydrationData ? { hydrationData } : undefined);
  // A chunk that fails during a client navigation belongs to the page being opened.
  setPendingLocationSource(() => {
    const next = router.state.navigation.location;
    return next ? next.pathname + next.search + next.hash : null;
  });
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;
