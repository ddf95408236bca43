import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { decideGuard, matchRoute, NOT_FOUND_TITLE, sharedPageUrl } from '@shop/shared/routes';
import { matchAdminRoute } from '@shop/shared/admin-routes';
import { BRAND } from '@shop/shared/brand';
import { SIGNED_IN_COOKIE } from '@shop/shared/session';
import { ROOT_ELEMENT_ID } from '@shop/shared/server-rendering';
import { NotFoundError } from '../lib/errors.ts';
import type { DbOrTx } from '../db/client.ts';
import { loadRenderer, serverPages, type ServerPagesOptions, type ShellAround } from './server-pages.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/** Served when the web app has not been built (API tests, or a fresh clone before `npm run build`). */
const UNBUILT_SHELL = `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><title>${BRAND.name}</title></head>
<body><div id="root"><p>網站前端尚未建置，請執行 npm run build。</p></div></body></html>`;

/** What a page's shell carries for search results and link previews. */
export interface PageMeta {
  title: string;
  description: string;
  url: string;
  image: string | null;
  type: 'website' | 'product';
  jsonLd: unknown[];
  /** No page is there (a product not on sale): the shell answers 404 with the page's title. */
  notFound?: boolean;
}

/** The modules' parts of this plugin: app.ts wires them in, so this plugin imports no module. */
export interface SpaOptions extends ServerPagesOptions {
  /** A page's meta (the SEO module's). */
  pageMeta(db: DbOrTx, publicUrl: string, pathname: string): Promise<PageMeta | null>;
}

/**
 * Serves the built single-page app: hashed assets cached for a year, everything else revalidated.
 * Paths that no client route owns, and products that are not on sale, get the shell with status 404 and
 * the title 「找不到頁面」, so monitors and crawlers see the truth.
 */
export default fp<SpaOptions>(
  async (app, { pageMeta, ...pageOptions }) => {
    const dist = app.config.webDist;
    const indexFile = path.join(dist, 'index.html');
    const built = fs.existsSync(indexFile);
    if (!built && !app.config.isTest)
      app.log.warn({ dist }, 'web build not found: serving a placeholder page');

    // Read once: the shell is small and never changes while this process runs.
    const template = built ? fs.readFileSync(indexFile, 'utf8') : UNBUILT_SHELL;
    if (built && !template.includes(EMPTY_ROOT))
      throw new Error(`${indexFile} has no ${EMPTY_ROOT} for the pages to go in`);

    if (built) {
      const assetsDir = path.join(dist, 'assets');
      await app.register(fastifyStatic, {
        root: assetsDir,
        prefix: '/assets/',
        wildcard: true,
        index: false,
        // The build wrote x.js.br and x.js.gz at the highest levels: sent as they are when the
        // browser takes them (the response compressor leaves an encoded reply alone).
        preCompressed: true,
        cacheControl: false,
        // Only content-hashed files under assets/ may be cached for good; top-level files revalidate.
        setHeaders: (reply, filePath) =>
          void reply.header(
            'cache-control',
            filePath.startsWith(assetsDir + path.sep) ? IMMUTABLE : NO_CACHE,
          ),
      });
      // Top-level files (icons, build manifest): one route each, revalidated every time.
      for (const entry of fs.readdirSync(dist, { withFileTypes: true })) {
        if (!entry.isFile() || entry.name === 'index.html') continue;
        app.get(`/${entry.name}`, (_request, reply) =>
          reply.sendFile(entry.name, dist, { cacheControl: false }),
        );
      }
    }

    // A product page's shell costs two queries; keep each filled shell a few seconds.
    const shells = shellCache(500, 5_000);
    const renderer = built ? await loadRenderer(dist, app) : null;
    const pages = renderer ? serverPages(app, renderer, pageOptions) : null;

    app.get('/*', async (request, reply) => {
      const rawPath = request.url.split('?', 1)[0]!;
      const search = request.url.slice(rawPath.length);
      const pathname = decodeSafe(rawPath);
      if (pathname.startsWith('/api/') || pathname === '/api')
        throw new NotFoundError('找不到這個 API 路徑。');
      if (pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname)) {
        // A missing file is not a page: no shell, so a lost chunk fails fast in the browser.
        return reply
          .code(404)
          .header('cache-control', NO_CACHE)
          .type('text/plain; charset=utf-8')
          .send('Not Found');
      }
      const match = matchRoute(pathname);
      // The operations console: its own pages, never indexed, no shop meta.
      const admin = match ? null : matchAdminRoute(pathname);
      if (admin) {
        const html = replaceTitle(
          template,
          `<title>${escapeHtml(`${admin.route.title}｜${BRAND.name} 管理後台`)}</title>\n    <meta name="robots" content="noindex, nofollow">`,
        );
        return reply.code(200).header('cache-control', NO_CACHE).type('text/html; charset=utf-8').send(html);
      }
      const fillShell = async (): Promise<Shell> => {
        const meta = await pageMeta(app.db, app.config.publicUrl, pathname).catch((error: unknown) => {
          request.log.error({ err: error }, 'page meta failed; serving defaults');
          return null;
        });
        const title =
          meta?.title ??
          (!match
            ? `${NOT_FOUND_TITLE}｜${BRAND.name}`
            : match.route.id !== 'landing'
              ? `${match.route.title}｜${BRAND.name}`
              : `${BRAND.name}｜${BRAND.tagline}`);
        return shellOf(renderShell(template, title, meta), Boolean(match) && !meta?.notFound);
      };
      const sendShell = async () => {
        const shell = await shells.get(pathname, fillShell);
        return reply
          .code(shell.found ? 200 : 404)
          .header('cache-control', NO_CACHE)
          .type('text/html; charset=utf-8')
          .send(shell.html);
      };
      if (!pages || !match) return sendShell();

      // Decided by the real session, never by the hint cookie a visitor can set or drop: a page is
      // rendered with the visitor's cookies only for a live session, and kept for others only when
      // rendered with none.
      const visitor = await app.visitorOf(request);
      if (!visitor && (request.cookies[SIGNED_IN_COOKIE] || app.sessionTokenOf(request)))
        reply.clearSessionCookies();
      // A members' page for nobody: the shell, whose title and preview serve a shared link; the
      // app sends the visitor to sign in (the renderer would send the shell too, after a render).
      const guard = decideGuard(pathname, search, { signedIn: false, resetPasswordAuth: false });
      if (!visitor && guard.kind !== 'allow') return sendShell();

      let answer;
      try {
        answer = await pages.answer(request, {
          sharedUrl: sharedPageUrl(pathname, search, match.route),
          route: match.route,
          visitor,
          shell: fillShell,
        });
      } catch (error) {
        request.log.error({ err: error, url: request.url }, 'server render failed; sending the page shell');
        return sendShell();
      }
      if (answer.kind === 'redirect')
        return reply
          .code(answer.status)
          .header('cache-control', NO_CACHE)
          .redirect(answer.location, answer.status);
      if (answer.kind !== 'page') return sendShell();
      if (answer.gzip) reply.header('content-encoding', 'gzip');
      // A signed-in page holds the member's own state: never kept by a shared cache.
      return reply
        .code(answer.status)
        .header('cache-control', visitor ? `private, ${NO_CACHE}` : NO_CACHE)
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8')
        .send(answer.html);
    });
  },
  { name: 'spa', dependencies: ['config', 'session'] },
);

interface Shell extends ShellAround {
  /** The shell as it is, its root element empty (the browser renders the page). */
  html: string;
}

const EMPTY_ROOT = `<div id="${ROOT_ELEMENT_ID}"></div>`;

/** A filled shell and its parts around the empty root element (the placeholder shell has none). */
function shellOf(html: string, found: boolean): Shell {
  const at = html.indexOf(EMPTY_ROOT);
  return at < 0
    ? { html, found, beforeRoot: '', afterRoot: '' }
    : { html, found, beforeRoot: html.slice(0, at), afterRoot: html.slice(at + EMPTY_ROOT.length) };
}

/** Filled HTML shells by path: at most `max`, each kept `ttlMs` (a product's new name shows within seconds). */
function shellCache(max: number, ttlMs: number) {
  const entries = new Map<string, { shell: Shell; expires: number }>();
  return {
    async get(key: string, render: () => Promise<Shell>): Promise<Shell> {
      const hit = entries.get(key);
      if (hit && hit.expires > Date.now()) return hit.shell;
      const shell = await render();
      entries.delete(key);
      entries.set(key, { shell, expires: Date.now() + ttlMs });
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      return shell;
    },
  };
}

function decodeSafe(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Fills title, description, Open Graph and JSON-LD into the shell so link previews and crawlers see them. */
export function renderShell(template: string, title: string, meta: PageMeta | null = null): string {
  const head = meta
    ? [
        `<meta name="description" content="${escapeHtml(meta.description)}">`,
        `<link rel="canonical" href="${escapeHtml(meta.url)}">`,
        `<meta property="og:site_name" content="${escapeHtml(BRAND.name)}">`,
        `<meta property="og:locale" content="zh_TW">`,
        `<meta property="og:type" content="${meta.type}">`,
        `<meta property="og:title" content="${escapeHtml(title)}">`,
        `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
        `<meta property="og:url" content="${escapeHtml(meta.url)}">`,
        ...(meta.image
          ? [
              `<meta property="og:image" content="${escapeHtml(meta.image)}">`,
              `<meta name="twitter:card" content="summary_large_image">`,
            ]
          : [`<meta name="twitter:card" content="summary">`]),
        // JSON-LD is data, not script: nothing here runs, and `<` is escaped so it cannot end the tag.
        ...meta.jsonLd.map(
          (ld) =>
            `<script type="application/ld+json">${JSON.stringify(ld).replace(/</g, '\\u003c')}</script>`,
        ),
      ].join('\n    ')
    : '';
  return replaceTitle(template, `<title>${escapeHtml(title)}</title>${head ? `\n    ${head}` : ''}`);
}

/**
 * Puts `html` in place of the shell's <title> element. A replacer function, never a replacement
 * string: in one, `$&`, `` $` `` and `$'` (from a product name or a path) would splice in parts of
 * the page.
 */
function replaceTitle(template: string, html: string): string {
  return template.replace(/<title>[^<]*<\/title>/, () => html);
}
