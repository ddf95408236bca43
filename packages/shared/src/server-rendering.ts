/**
 * The contract between the web's server renderer (apps/web/src/entry-server.tsx, built to
 * dist/ssr/entry-server.js) and the server that loads it (apps/server/src/plugins/spa.ts): what
 * each side hands the other, and the elements of the page both name. How a page is rendered once
 * and shared by every member: docs/decisions/038-shared-member-pages.md.
 */
import type { CurrentUser } from './auth.ts';
import type { CartResponse } from './cart.ts';

/** The element the app renders into: empty in the shell (apps/web/index.html), the page once rendered. */
export const ROOT_ELEMENT_ID = 'root';

/** The element that carries a rendered page's state (the renderer writes it, the browser's boot reads it). */
export const SERVER_STATE_ELEMENT_ID = 'ssr-state';

/** What the browser starts from on a rendered page. `Queries` is TanStack Query's dehydrated state. */
export interface ServerState<Queries = unknown> {
  /** Who the page was rendered for (null: nobody signed in). */
  user: CurrentUser | null;
  /** The answers the page was rendered with. */
  queries: Queries;
  /** The router's loader answers by route id. */
  router: { loaderData: Record<string, unknown> };
}

/** Answers the page's API calls in-process, as the server would answer the browser. */
export type InProcessFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface RenderInput {
  /** The page's absolute URL (origin, path and query). */
  url: string;
  /** The visitor's cookies ('' for a page rendered for nobody in particular). */
  cookie: string;
  fetch: InProcessFetch;
}

/** A rendered page: the HTML inside the root element, and the state element to follow it. */
export interface RenderedPage {
  kind: 'page';
  status: number;
  html: string;
  state: string;
}

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | RenderedPage
  /** Not rendered on the server: the page shell is sent and the browser renders the page. */
  | { kind: 'skip' };

/**
 * What a page shared by every member shows of the member: the header's cart count. Everything else
 * on such a page is the same for every member, so it is rendered once per persona and URL.
 */
export interface Persona {
  cartCount: number;
}

/** The member's own parts of a shared page, read per request. */
export interface MemberParts {
  user: CurrentUser;
  cart: CartResponse;
}

export function personaOf(member: MemberParts): Persona {
  return { cartCount: member.cart.itemCount };
}

/** A member's part of a shared page's state. */
export type MemberSlot = 'user' | 'cart';

/** A page rendered once for a persona, waiting for a member's own parts (`memberSlots`). */
export interface SharedPage {
  kind: 'page';
  status: number;
  html: string;
  /** The state element in pieces: `slots[i]` goes between `stateParts[i]` and `stateParts[i + 1]`. */
  stateParts: readonly string[];
  slots: readonly MemberSlot[];
}

export type SharedRenderResult =
  | SharedPage
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'skip' }
  /** The page asked the API for a member's own data after all: render it for the member (`render`). */
  | { kind: 'personal' };

export interface SharedRenderInput {
  url: string;
  persona: Persona;
  /** Answers without any visitor's cookies: nothing personal can reach a shared page. */
  fetch: InProcessFetch;
}

/** The module the server imports from the web's server build. */
export interface PageRenderer {
  /** A page for one visitor (their cookies), or for nobody in particular (no cookies). */
  render(input: RenderInput): Promise<RenderResult>;
  /** A page every member sees alike (RouteDef.sameForEveryMember), rendered for a persona. */
  renderShared(input: SharedRenderInput): Promise<SharedRenderResult>;
  /**
   * What goes in each of a shared page's slots for this member (their JSON, safe inside the state
   * element): with them in place, the page is the one `render` would give the member.
   */
  memberSlots(member: MemberParts): Record<MemberSlot, string>;
}
