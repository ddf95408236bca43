import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteDef } from '@shop/shared/routes';
import {
  personaOf,
  ROOT_ELEMENT_ID,
  type InProcessFetch,
  type MemberParts,
  type MemberSlot,
  type PageRenderer,
  type RenderedPage,
  type RenderResult,
  type SharedPage,
  type SharedRenderResult,
} from '@shop/shared/server-rendering';
import { acceptsEncoding } from '../lib/accept-encoding.ts';
import { deflatePiece, gzipOf, type DeflatedPiece } from '../lib/gzip-pieces.ts';
import { pageCache, type Loaded } from '../lib/page-cache.ts';

/**
 * Pages rendered on the server (docs/decisions/024-server-rendering.md) and how little they cost
 * (docs/decisions/038-shared-member-pages.md): a page for nobody in particular, and a page every
 * member sees alike (per persona: the cart count), are rendered once and kept until what they show
 * changes; a member's own page (their orders) is rendered for them on every request.
 */

/** A change to what pages show: some products (by id), the catalogue's lists (a product went in or out of stock, a sale reordered them), anything in the catalogue, the content, the redirects, the footer's facts. */
export type PageDataChange =
  | { kind: 'products'; productIds: readonly string[] }
  /**
   * Lists may show otherwise: those whose API address `shows` picks, and related products when
   * `related`; without `shows`, every list.
   */
  | { kind: 'catalog-lists'; shows?: (listUrl: string) => boolean; related?: boolean }
  | { kind: 'catalog' | 'content' | 'redirects' | 'storefront' };

export type Visitor = NonNullable<Awaited<ReturnType<FastifyInstance['visitorOf']>>>;

export interface ServerPagesOptions {
  /** A signed-in member's own parts of a shared page: their user and their cart. */
  memberParts(visitor: Visitor): Promise<MemberParts>;
  /** Tells of every change to what pages show, on this instance and the others; returns how to stop. */
  onPageDataChange(listener: (change: PageDataChange) => void): () => void;
}

/** The page shell around its empty root element, or null when it has none (the placeholder shell). */
export interface ShellAround {
  found: boolean;
  beforeRoot: string;
  afterRoot: string;
}

export type PageAnswer =
  /** `gzip`: `html` is gzip-encoded (a kept page, for a visitor who takes gzip). */
  | { kind: 'page'; status: number; html: Buffer; gzip: boolean }
  | { kind: 'redirect'; status: number; location: string }
  /** Send the page shell: the browser renders the page. */
  | { kind: 'shell' };

export interface PageQuestion {
  /** The page's address as kept for others: its path and the parameters it reads (sharedPageUrl). */
  sharedUrl: string;
  route: RouteDef;
  visitor: Visitor | null;
  /** The page's shell, filled afresh for what the page shows now. */
  shell(): Promise<ShellAround>;
}

/** A kept page's tags for the lists it shows: a list's, with its API address after it; related products'. */
const LIST_TAG = 'catalog-list ';
const RELATED_TAG = 'catalog-related';

/** The origin the in-process API is asked under. */
const ORIGIN = 'http://shop.internal';
/** Pages kept for others (anonymous, or shared by members): this many bytes at most, in all. */
const KEPT_MAX_BYTES = 64 * 1024 * 1024;
/** How long a kept page lives when every change to what it shows is announced (it is dropped then). */
const KEPT_TTL_MS = 10 * 60_000;
/** … and when it shows something whose changes are not announced, or is not a page (a redirect, a shell). */
const KEPT_SHORT_TTL_MS = 5_000;

/**
 * A page kept whole, ready to send: its bytes (the shell, the rendered HTML, the state, the rest
 * of the shell) encoded once, in pieces around its holes: a member's own parts (`user`, `cart`)
 * and the moments its answers were read (`now`). An answer encodes only what fills the holes.
 */
interface KeptPage {
  kind: 'page';
  status: number;
  /** `holes[i]` goes between `pieces[i]` and `pieces[i + 1]`. */
  pieces: readonly Buffer[];
  holes: readonly Hole[];
  /** The pieces compressed, once, when a visitor who takes gzip first asks for the page. */
  deflated?: readonly DeflatedPiece[];
}
type Hole = MemberSlot | 'now';
type Kept =
  | KeptPage
  | { kind: 'redirect'; status: number; location: string }
  /** Send the shell: the renderer skipped the page or failed on it, or the shell has no page. */
  | { kind: 'shell' }
  /** A shared render asked for a member's own data: the page is rendered for each member. */
  | { kind: 'personal' };

export function serverPages(app: FastifyInstance, renderer: PageRenderer, options: ServerPagesOptions) {
  const kept = pageCache<Kept>({ maxBytes: KEPT_MAX_BYTES });
  const stopListening = options.onPageDataChange((change) => {
    if (change.kind === 'products') for (const id of change.productIds) kept.drop(`product:${id}`);
    else if (change.kind !== 'catalog-lists') kept.drop(change.kind);
    else {
      const { shows } = change;
      if (change.related ?? !shows) kept.drop(RELATED_TAG);
      kept.dropWhere((tag) => tag.startsWith(LIST_TAG) && (!shows || shows(tag.slice(LIST_TAG.length))));
    }
  });
  app.addHook('onClose', async () => stopListening());

  return {
    async answer(request: FastifyRequest, question: PageQuestion): Promise<PageAnswer> {
      const { sharedUrl, route, visitor } = question;
      const url = `${ORIGIN}${sharedUrl}`;
      // A kept page goes out compressed as it was kept (the response compressor leaves it alone).
      const gzip = acceptsEncoding(request.headers['accept-encoding'], 'gzip');
      if (!visitor) {
        const found = await kept.get(`anonymous ${sharedUrl}`, () =>
          keepable(app, request, question, (fetch) => renderer.render({ url, cookie: '', fetch })),
        );
        return answerOf(found, NO_MEMBER, gzip);
      }
      const query = new URLSearchParams(sharedUrl.slice(sharedUrl.split('?', 1)[0]!.length));
      if (route.sameForEveryMember && !query.has('preview')) {
        const member = await options.memberParts(visitor);
        const persona = personaOf(member);
        const found = await kept.get(`member ${persona.cartCount} ${sharedUrl}`, () =>
          keepable(app, request, question, (fetch) => renderer.renderShared({ url, persona, fetch })),
        );
        if (found.kind !== 'personal') return answerOf(found, renderer.memberSlots(member), gzip);
      }
      // The member's own page (their orders, their cart), or one that turned out to show their data.
      const cookie = request.headers.cookie ?? '';
      const result = await renderer.render({
        url: `${ORIGIN}${request.url}`,
        cookie,
        fetch: inProcessFetch(app, request, cookie),
      });
      if (result.kind === 'redirect') return result;
      if (result.kind !== 'page') return { kind: 'shell' };
      const shell = await question.shell();
      if (!shell.found || !shell.beforeRoot) return { kind: 'shell' };
      // Rendered for this member alone: the response compressor encodes it.
      return answerOf(wholePage(shell, result), NO_MEMBER, false);
    },
  };
}

/** A page for nobody in particular, or a member's own: no member slots to fill. */
const NO_MEMBER = null;

function answerOf(found: Kept, member: Record<MemberSlot, string> | null, gzip: boolean): PageAnswer {
  if (found.kind === 'page') {
    const parts = filled(found, member);
    if (!gzip) return { kind: 'page', status: found.status, html: Buffer.concat(parts), gzip };
    found.deflated ??= found.pieces.map(deflatePiece);
    const deflated = found.deflated;
    // Pieces at even places, holes between them: each piece compressed once, each hole stored.
    const html = gzipOf(parts.map((part, i) => (i % 2 === 0 ? deflated[i / 2]! : part)));
    return { kind: 'page', status: found.status, html, gzip };
  }
  return found.kind === 'redirect' ? found : { kind: 'shell' };
}

/**
 * A kept page's pieces with its holes filled between them: the member's own parts, and the moment
 * its answers were read, which is now: a kept page is dropped when what it shows changes, so its
 * answers are as current as the page (the browser would otherwise take a page kept over 30 s for
 * stale and ask for its data again at once).
 */
function filled(page: KeptPage, member: Record<MemberSlot, string> | null): Buffer[] {
  const now = Buffer.from(String(Date.now()));
  const slots = member && { user: Buffer.from(member.user), cart: Buffer.from(member.cart) };
  const parts: Buffer[] = [page.pieces[0]!];
  for (let i = 0; i < page.holes.length; i++) {
    const hole = page.holes[i]!;
    if (hole === 'now') parts.push(now);
    else if (slots) parts.push(slots[hole]);
    else throw new Error(`a page for no member has a member's slot (${hole})`);
    parts.push(page.pieces[i + 1]!);
  }
  return parts;
}

const OPEN_ROOT = `<div id="${ROOT_ELEMENT_ID}" data-hydrating>`;
const READ_AT = /(?<="dataUpdatedAt":)\d+/g;

/** The shell with the rendered page in its root element (marked: the browser hydrates it), cut at its holes. */
function wholePage(shell: ShellAround, result: RenderedPage | SharedPage): KeptPage {
  const texts = 'state' in result ? [result.state] : result.stateParts;
  const slots: readonly MemberSlot[] = 'state' in result ? [] : result.slots;
  const pieces: string[] = [`${shell.beforeRoot}${OPEN_ROOT}${result.html}</div>`];
  const holes: Hole[] = [];
  texts.forEach((text, i) => {
    // Each "dataUpdatedAt" number is a hole; the text around it joins the piece before.
    let at = 0;
    for (const match of text.matchAll(READ_AT)) {
      pieces[pieces.length - 1] += text.slice(at, match.index);
      holes.push('now');
      pieces.push('');
      at = match.index + match[0].length;
    }
    pieces[pieces.length - 1] += text.slice(at);
    if (i < slots.length) {
      holes.push(slots[i]!);
      pieces.push('');
    }
  });
  pieces[pieces.length - 1] += shell.afterRoot;
  return {
    kind: 'page',
    status: result.status < 400 ? 200 : 404,
    pieces: pieces.map((piece) => Buffer.from(piece)),
    holes,
  };
}

/**
 * A render for others (no cookies), with what the cache needs: the tags of what the page shows,
 * read from the API answers it was rendered from (each product's id, the catalogue's lists, the
 * content, the redirects), and how long it may be kept: until a change drops it, or a few seconds
 * when it shows something whose changes are not announced, or is not a page.
 */
async function keepable(
  app: FastifyInstance,
  request: FastifyRequest,
  question: PageQuestion,
  render: (fetch: InProcessFetch) => Promise<RenderResult | SharedRenderResult>,
): Promise<Loaded<Kept>> {
  const tags = new Set<string>();
  let announced = true;
  const fetch = inProcessFetch(app, request, '', (url, status, body) => {
    const apiPath = url.split('?', 1)[0]!;
    if (apiPath.startsWith('/api/catalog/')) {
      tags.add('catalog');
      // A list (by its address) or related products: a product in or out of stock may join or
      // leave it, a sale may move it (docs/decisions/047). A product's own page: its every change.
      if (apiPath === '/api/catalog/products') tags.add(`${LIST_TAG}${url}`);
      else if (apiPath.endsWith('/related')) tags.add(RELATED_TAG);
      else if (status === 200) for (const id of productIdsIn(body)) tags.add(`product:${id}`);
    } else if (apiPath.startsWith('/api/content/')) tags.add('content');
    else if (apiPath === '/api/redirects') tags.add('redirects');
    // The footer's facts, on every page.
    else if (apiPath === '/api/site/storefront') tags.add('storefront');
    else announced = false;
  });
  const briefly = (value: Kept): Loaded<Kept> => ({
    value,
    tags: [...tags],
    ttlMs: KEPT_SHORT_TTL_MS,
    bytes: 256,
  });
  let result: RenderResult | SharedRenderResult;
  try {
    result = await render(fetch);
  } catch (error) {
    request.log.error({ err: error, url: request.url }, 'server render failed; sending the page shell');
    return briefly({ kind: 'shell' });
  }
  if (result.kind === 'redirect' || result.kind === 'personal') return briefly(result);
  if (result.kind !== 'page') return briefly({ kind: 'shell' });
  // Filled afresh: a shell kept from before a change would hold what it changed (a price in JSON-LD).
  const shell = await question.shell();
  if (!shell.found || !shell.beforeRoot) return briefly({ kind: 'shell' });
  const value = wholePage(shell, result);
  return {
    value,
    tags: [...tags],
    ttlMs: announced ? KEPT_TTL_MS : KEPT_SHORT_TTL_MS,
    bytes: value.pieces.reduce((sum, piece) => sum + piece.length, 0),
  };
}

/** The product a catalogue answer is about. */
function productIdsIn(body: Buffer): string[] {
  try {
    const json = JSON.parse(body.toString('utf8')) as { id?: unknown };
    return typeof json.id === 'string' ? [json.id] : [];
  } catch {
    return [];
  }
}

/**
 * The page's API calls answered in-process (no network), with the visitor's cookies (none, for a
 * page kept for others) and address, so every rule (sessions, limits, maintenance) applies as if
 * the browser had asked. `seen` hears of each answer.
 */
function inProcessFetch(
  app: FastifyInstance,
  request: FastifyRequest,
  cookie: string,
  seen?: (url: string, status: number, body: Buffer) => void,
): InProcessFetch {
  return async (url, init) => {
    const res = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url,
      headers: {
        ...(init.headers as Record<string, string>),
        cookie,
        'user-agent': request.headers['user-agent'] ?? '',
      },
      remoteAddress: request.ip,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    seen?.(url, res.statusCode, res.rawPayload);
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload, {
      status: res.statusCode,
      headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
    });
  };
}

/** The server renderer built from the web app (apps/web/src/entry-server.tsx → dist/ssr/entry-server.js). */
export async function loadRenderer(dist: string, app: FastifyInstance): Promise<PageRenderer | null> {
  const file = path.join(dist, 'ssr', 'entry-server.js');
  if (!fs.existsSync(file)) {
    if (!app.config.isTest)
      app.log.warn({ file }, 'server renderer not built: pages render in the browser only');
    return null;
  }
  try {
    return (await import(pathToFileURL(file).href)) as PageRenderer;
  } catch (error) {
    // A renderer that cannot load must not keep the shop closed: pages render in the browser.
    app.log.error({ err: error, file }, 'server renderer failed to load: pages render in the browser only');
    return null;
  }
}
