/**
 * The shop's pages rendered on the server (docs/decisions/024-server-rendering.md): the server
 * imports this module's build (dist/ssr/entry-server.js) and asks it for a page's HTML. The same
 * route table, guards, pages and data queries as in the browser run here; the API answers
 * in-process through the request's scope (lib/request-scope.ts), with the visitor's own cookies.
 *
 * Data: the page is rendered, the queries it asked for are fetched, and it is rendered again, until
 * nothing new is asked for (at most MAX_PASSES). What was fetched travels in the page as JSON so
 * the browser hydrates without fetching it again.
 */
// First: the persisted stores read the storages as they are created.
import './lib/server-storage.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import { dehydrate, QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import type { CurrentUser, MeResponse } from '@shop/shared/auth';
import { decideGuard } from '@shop/shared/routes';
import { buildRoutes } from './app/router.tsx';
import { currentGuardState } from './app/guards.ts';
import { hasSessionCookie } from './lib/cookies.ts';
import { setRequestScopeSource, type RequestScope } from './lib/request-scope.ts';
import { useUserStore } from './features/auth/stores/user-store.ts';
import { SERVER_STATE_ELEMENT_ID, type ServerState } from './lib/server-state.ts';

/** Render, fetch what was asked for, render again: three rounds cover a page, its layout and what their answers lead to. */
const MAX_PASSES = 4;

/**
 * The routes not rendered here: they depend on what only the browser holds (the checkout draft,
 * the reset-password pass), so they get the page shell and render in the browser as before.
 */
const BROWSER_ONLY = new Set(['payment', 'memberResetPassword']);

const scope = new AsyncLocalStorage<RequestScope>();
setRequestScopeSource(() => scope.getStore());

// Built once: the handler keeps each page's code once it has been loaded.
const handler = createStaticHandler(buildRoutes());

export interface RenderInput extends RequestScope {
  /** The page's absolute URL (origin, path and query). */
  url: string;
}

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'page'; status: number; html: string; state: string }
  /** Not rendered here: the server sends the page shell. */
  | { kind: 'skip' };

export function render(input: RenderInput): Promise<RenderResult> {
  return scope.run({ cookie: input.cookie, fetch: input.fetch }, () => renderInScope(input.url));
}

async function renderInScope(url: string): Promise<RenderResult> {
  // A guard's redirect (a visitor on a members-only page, a member on the sign-in page) is left to
  // the browser, as before: the shell keeps the page's own title and preview for links shared.
  const { pathname, search } = new URL(url);
  if (decideGuard(pathname, search, currentGuardState()).kind !== 'allow') return { kind: 'skip' };
  const request = new Request(url, { method: 'GET' });
  const context = await handler.query(request);
  // What is left is the owner's redirect of an old product address: answered as a real redirect.
  if (context instanceof Response) {
    const location = context.headers.get('location');
    return location ? { kind: 'redirect', status: context.status, location } : { kind: 'skip' };
  }
  const leaf = context.matches.at(-1)?.route.id;
  // A route that failed (a guard's 404) renders its error page in the browser, as before.
  if (!leaf || BROWSER_ONLY.has(leaf) || context.errors) return { kind: 'skip' };

  // Who is signed in, as the browser's first render will believe it (the user store).
  let user: CurrentUser | null = null;
  if (hasSessionCookie()) {
    const res = await scope.getStore()!.fetch('/api/auth/me', { method: 'GET', headers: { accept: 'application/json' } });
    user = res.ok ? ((await res.json()) as MeResponse).user : null;
    // The hint outlived the session: the browser sends the visitor to sign in; nothing to render.
    if (!user) return { kind: 'skip' };
  }

  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  const router = createStaticRouter(handler.dataRoutes, context);
  const app = (
    <StrictMode>
      <QueryClientProvider client={client}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </StrictMode>
  );

  let html = '';
  const tried = new Set<string>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    html = renderWithUser(user, () => renderToString(app));
    const wanted = client
      .getQueryCache()
      .getAll()
      .filter((q) => !tried.has(q.queryHash) && q.state.status === 'pending' && isEnabled(q));
    if (wanted.length === 0) break;
    for (const q of wanted) tried.add(q.queryHash);
    // A failed query stays failed: the page shows what it shows in the browser for that error.
    await Promise.all(wanted.map((q) => q.fetch().catch(() => undefined)));
  }

  const state: ServerState = {
    user,
    queries: dehydrate(client),
    router: hydrationData(context),
  };
  return { kind: 'page', status: context.statusCode, html, state: serverStateScript(state) };
}

/** The user store is one per process here: set for the render (which is synchronous) and cleared at once. */
function renderWithUser(user: CurrentUser | null, run: () => string): string {
  useUserStore.setState({ userInfo: user, providers: user?.providers ?? [] });
  try {
    return run();
  } finally {
    useUserStore.setState({ userInfo: null, providers: [] });
  }
}

function isEnabled(query: Query): boolean {
  const enabled = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof enabled === 'function' ? enabled(query) !== false : enabled !== false;
}

/** What the browser's router needs to start where the server's left off: the loaders' answers. */
function hydrationData(context: StaticHandlerContext): ServerState['router'] {
  return { loaderData: context.loaderData };
}

/** The state as a data block (not a script, so the content security policy has nothing to allow); `<` escaped so it cannot end the element. */
function serverStateScript(state: ServerState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${json}</script>`;
}
