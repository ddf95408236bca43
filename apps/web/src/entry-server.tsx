/**
 * The shop's pages rendered on the server (docs/decisions/024-server-rendering.md): the server
 * imports this module's build (dist/ssr/entry-server.js) and asks it for a page's HTML. The same
 * route table, guards, pages and data queries as in the browser run here; the API answers
 * in-process through the request's scope (lib/request-scope.ts), with the visitor's own cookies.
 *
 * Data: the page is rendered, the queries it asked for are fetched, and it is rendered again, until
 * nothing new is asked for (at most MAX_PASSES). What was fetched travels in the page as JSON so
 * the browser hydrates without fetching it again. Each pass is React's streaming renderer
 * (renderToPipeableStream) read to its end once everything is ready (onAllReady): one complete
 * piece of HTML, its Suspense boundaries marked (<!--$-->) for the browser to hydrate one by one.
 *
 * A page every member sees alike is also rendered once for a persona (`renderShared`) and given to
 * each member with their own parts in place (`memberSlots`): docs/decisions/038-shared-member-pages.md.
 * What this module offers the server is typed in packages/shared/src/server-rendering.ts.
 */
// First: the persisted stores read the storages as they are created.
import './lib/server-storage.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import { dehydrate, QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import type { CurrentUser, MeResponse } from '@shop/shared/auth';
import type { CartResponse } from '@shop/shared/cart';
import { decideGuard } from '@shop/shared/routes';
import { SIGNED_IN_COOKIE } from '@shop/shared/session';
import type {
  InProcessFetch,
  MemberParts,
  MemberSlot,
  Persona,
  RenderInput,
  RenderResult,
  SharedRenderInput,
  SharedRenderResult,
} from '@shop/shared/server-rendering';
import { buildRoutes } from './app/router.tsx';
import { currentGuardState } from './app/guards.ts';
import { cartQueryOptions } from './features/cart/api/cart-api.ts';
import { hasSessionCookie } from './lib/cookies.ts';
import { setRequestScopeSource, type RequestScope } from './lib/request-scope.ts';
import { setServerUserSource, userStateFor, type UserState } from './features/auth/stores/user-store.ts';
import { SERVER_STATE_ELEMENT_ID, type ServerState } from './lib/server-state.ts';

/** Render, fetch what was asked for, render again: three rounds cover a page, its layout and what their answers lead to. */
const MAX_PASSES = 4;

/**
 * The routes not rendered here: they depend on what only the browser holds (the checkout draft,
 * the reset-password pass), so they get the page shell and render in the browser as before. The
 * mailed reset link too: its one-time code is checked in the browser when the page opens, never
 * taken from a render kept for a few seconds (a used link would show the form again).
 */
const BROWSER_ONLY = new Set(['payment', 'memberResetPassword', 'resetPassword']);

/** Render time allowed for one pass (a part that never stops suspending): then the page shell is sent. */
const RENDER_TIMEOUT_MS = 10_000;

/** The request being rendered: its cookies and API, and (once known) whom the page is for. */
interface RenderScope extends RequestScope {
  user?: UserState;
}
const scope = new AsyncLocalStorage<RenderScope>();
setRequestScopeSource(() => scope.getStore());
// Rendering is asynchronous and requests overlap: the user store's snapshot on the server is the
// member of the request being rendered, read from its scope (features/auth/stores/user-store.ts).
setServerUserSource(() => scope.getStore()?.user);

// Built once: the handler keeps each page's code once it has been loaded.
const handler = createStaticHandler(buildRoutes());

export type { RenderInput, RenderResult };

export function render(input: RenderInput): Promise<RenderResult> {
  return scope.run({ cookie: input.cookie, fetch: input.fetch }, () => renderInScope(input.url));
}

async function renderInScope(url: string): Promise<RenderResult> {
  const routed = await route(url);
  if (routed.kind !== 'ready') return routed;

  // Who is signed in, as the browser's first render will believe it (the user store).
  let user: CurrentUser | null = null;
  if (hasSessionCookie()) {
    const res = await scope
      .getStore()!
      .fetch('/api/auth/me', { method: 'GET', headers: { accept: 'application/json' } });
    user = res.ok ? ((await res.json()) as MeResponse).user : null;
    // The hint outlived the session: the browser sends the visitor to sign in; nothing to render.
    if (!user) return { kind: 'skip' };
  }
  const client = newQueryClient();
  const html = await renderWithData(routed.context, client, user);
  const state: ServerState = { user, queries: dehydrate(client), router: hydrationData(routed.context) };
  return { kind: 'page', status: routed.context.statusCode, html, state: serverStateScript(state) };
}

/**
 * The member a shared page is drawn for: signed in, with nothing of anyone. Pages shared by every
 * member read no more of the user than that they are signed in (RouteDef.sameForEveryMember).
 */
const PERSONA_USER: CurrentUser = {
  uid: 'persona',
  email: '',
  displayName: '',
  emailVerified: true,
  providers: [],
};

/** The persona's cart: as many items as the member's, and nothing else. */
const personaCart = (persona: Persona): CartResponse => ({
  lines: [],
  itemCount: persona.cartCount,
  subtotal: 0,
});

// Where a member's own parts go in a shared page's state: strings no content can hold (a fresh
// secret each start), each replaced by the member's JSON (`memberSlots`).
const SLOT_ID = randomUUID();
const SLOTS: Record<MemberSlot, string> = {
  user: `\u0001${SLOT_ID}:user`,
  cart: `\u0001${SLOT_ID}:cart`,
};
const SLOT_OF = new Map(
  Object.entries(SLOTS).map(([slot, token]) => [JSON.stringify(token), slot as MemberSlot]),
);
/** A shared page's state before personalising: the member's parts are slot tokens. */
type SharedState = Omit<ServerState, 'user'> & { user: string };
const SLOT_PATTERN = new RegExp([...SLOT_OF.keys()].map((t) => t.replace(/\\/g, '\\\\')).join('|'), 'g');

/**
 * A page every member sees alike, drawn for a persona (signed in, `persona.cartCount` items in the
 * cart). Its API calls carry no cookies: an answer that needs a session (401, 403) means the page
 * is not the same for everyone after all, and it is not shared (`personal`: the server renders it
 * for the member instead).
 */
export function renderShared(input: SharedRenderInput): Promise<SharedRenderResult> {
  let personal = false;
  const fetch: InProcessFetch = async (url, init) => {
    const res = await input.fetch(url, init);
    if (res.status === 401 || res.status === 403) personal = true;
    return res;
  };
  // The session hint lets the guards pass the member's pages; the API never sees a session.
  return scope.run({ cookie: `${SIGNED_IN_COOKIE}=1`, fetch }, async (): Promise<SharedRenderResult> => {
    const routed = await route(input.url);
    if (routed.kind !== 'ready') return routed;
    const client = newQueryClient();
    const cartKey = cartQueryOptions().queryKey;
    client.setQueryData(cartKey, personaCart(input.persona));
    const html = await renderWithData(routed.context, client, PERSONA_USER);
    if (personal) return { kind: 'personal' };
    const queries = dehydrate(client);
    for (const query of queries.queries) {
      if (query.queryHash !== JSON.stringify(cartKey)) continue;
      (query.state as { data: unknown }).data = SLOTS.cart;
    }
    const script = serverStateScript({ user: SLOTS.user, queries, router: hydrationData(routed.context) });
    return {
      kind: 'page',
      status: routed.context.statusCode,
      html,
      stateParts: script.split(SLOT_PATTERN),
      slots: [...script.matchAll(SLOT_PATTERN)].map((m) => SLOT_OF.get(m[0])!),
    };
  });
}

/** What a member's slots hold on a shared page: with them in place, the page `render` gives them. */
export function memberSlots(member: MemberParts): Record<MemberSlot, string> {
  return {
    user: escapeJson(JSON.stringify(member.user)),
    cart: escapeJson(JSON.stringify(member.cart)),
  };
}

/** The route table's answer for a URL: a page to render, a redirect, or one the browser renders. */
async function route(
  url: string,
): Promise<
  | { kind: 'ready'; context: StaticHandlerContext }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'skip' }
> {
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
  return { kind: 'ready', context };
}

function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
}

/** The page's HTML once every query it asks for has its answer in `client`. */
async function renderWithData(
  context: StaticHandlerContext,
  client: QueryClient,
  user: CurrentUser | null,
): Promise<string> {
  const router = createStaticRouter(handler.dataRoutes, context);
  const app = (
    <StrictMode>
      <QueryClientProvider client={client}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </StrictMode>
  );

  scope.getStore()!.user = userStateFor(user);
  let html = '';
  const tried = new Set<string>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    html = await renderToHtml(app);
    const wanted = client
      .getQueryCache()
      .getAll()
      .filter((q) => !tried.has(q.queryHash) && q.state.status === 'pending' && isEnabled(q));
    if (wanted.length === 0) break;
    for (const q of wanted) tried.add(q.queryHash);
    // A failed query stays failed: the page shows what it shows in the browser for that error.
    await Promise.all(wanted.map((q) => q.fetch().catch(() => undefined)));
  }
  return html;
}
/**
 * The page's HTML from React's streaming renderer, once all of it is ready (no part is sent as a
 * fallback to be streamed in later: the server sends one complete document). Any error while
 * rendering fails the render, as a thrown error did with renderToString: the server then sends the
 * page shell and the browser renders the page (React would otherwise leave a failed Suspense
 * boundary for the browser to render, and hydration would report it).
 */
function renderToHtml(app: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failure: unknown = null;
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
        done();
      },
      final(done) {
        clearTimeout(timer);
        const html = Buffer.concat(chunks).toString('utf8');
        if (failure) reject(failure instanceof Error ? failure : new Error(String(failure)));
        // A boundary sent apart (<!--$?-->) is hidden until an inline script moves it into place,
        // which the content security policy does not allow and a visitor without JavaScript never runs.
        else if (html.includes('<!--$?-->'))
          reject(new Error('the server render sent a part of the page apart from its place'));
        else resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(app, {
      // Every part in its place: React otherwise sends a large finished Suspense boundary apart, at
      // the end, for an inline script to move (streaming's way to show the rest of the page sooner).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => void stream.pipe(sink),
      onShellError: (error) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError: (error) => {
        failure ??= error;
      },
    });
    const timer = setTimeout(
      () => stream.abort(new Error(`server render took over ${RENDER_TIMEOUT_MS} ms`)),
      RENDER_TIMEOUT_MS,
    );
  });
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
function serverStateScript(state: ServerState | SharedState): string {
  return `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${escapeJson(JSON.stringify(state))}</script>`;
}

/** JSON safe inside an HTML element: no `<` to end it, no line separators that old parsers choke on. */
function escapeJson(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
