import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';

/**
 * How the server uses the web app's server renderer (dist/ssr/entry-server.js, docs/decisions/024):
 * a stand-in renderer here answers by path, so these tests check the server's part (where the page
 * goes, headers, redirects, falling back to the shell, the in-process API with the visitor's
 * cookies) without a web build. The real renderer is driven in the browser (e2e/server-rendering.spec.ts).
 */
const INDEX =
  '<!doctype html><html lang="zh-Hant-TW"><head><title>山嵐茶事</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

const RENDERER = `
export async function render({ url, cookie, fetch }) {
  const { pathname } = new URL(url);
  if (pathname === '/member/orderTracking') return { kind: 'redirect', status: 301, location: '/member/orderList' };
  if (pathname === '/faq') throw new Error('the page broke');
  if (pathname === '/cart') return { kind: 'skip' };
  const me = await fetch('/api/auth/me', { method: 'GET', headers: { accept: 'application/json' } });
  const body = await me.json();
  globalThis.__renders = (globalThis.__renders ?? 0) + 1;
  return { kind: 'page', status: 200, html: '<main>' + (body.user ? body.user.email : 'nobody') + '</main>', state: '<script type="application/json" id="ssr-state">{}</script>' };
}
`;

describe.skipIf(!dbAvailable())('server rendering', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.mkdir(path.join(dist, 'ssr'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    await fs.writeFile(path.join(dist, 'ssr', 'entry-server.js'), RENDERER);
    ctx = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await ctx.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('puts the rendered page and its state into the shell, with the shell’s title', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/home' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(
      '<div id="root" data-hydrating><main>nobody</main></div><script type="application/json" id="ssr-state">{}</script>',
    );
    expect(res.body).toContain('<title>關於山嵐｜山嵐茶事</title>');
  });

  it('renders for the signed-in visitor with their own cookies, privately and never from the shared cache', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-member@example.com');
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/mall', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.body).toContain('<main>ssr-member@example.com</main>');
    }
    expect((globalThis as { __renders?: number }).__renders).toBe(before + 2);
  });

  it('answers a redirect from the renderer (an old product address) itself', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-moved@example.com');
    const res = await ctx.app.inject({ method: 'GET', url: '/member/orderTracking', headers: { cookie } });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/member/orderList');
  });

  it('sends nobody in particular the shell of a members’ page at once, without rendering it', async () => {
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    for (let i = 0; i < 20; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: `/mall?q=${i}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    }
    expect((globalThis as { __renders?: number }).__renders ?? 0).toBe(before);
  });

  it('renders a page for nobody once whatever parameters it does not read, and keeps those it reads apart', async () => {
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    const bodies = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: `/team?r=${i}&utm_source=line` });
      expect(res.statusCode).toBe(200);
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    expect((globalThis as { __renders?: number }).__renders).toBe(before + 1);
    await ctx.app.inject({ method: 'GET', url: '/media?type=video&r=1' });
    await ctx.app.inject({ method: 'GET', url: '/media?r=2&type=video' });
    await ctx.app.inject({ method: 'GET', url: '/media?type=article' });
    expect((globalThis as { __renders?: number }).__renders).toBe(before + 3);
  });

  it('decides by the real session, not the hint cookie: a member without the hint never lands in the shared cache', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-nohint@example.com');
    const token = cookie
      .split('; ')
      .filter((c) => !c.startsWith('signed_in='))
      .join('; ');
    const own = await ctx.app.inject({ method: 'GET', url: '/download', headers: { cookie: token } });
    expect(own.body).toContain('<main>ssr-nohint@example.com</main>');
    expect(own.headers['cache-control']).toBe('private, no-cache');
    const stranger = await ctx.app.inject({ method: 'GET', url: '/download' });
    expect(stranger.body).toContain('<main>nobody</main>');
    // A hint with no live session behind it renders for nobody (from the shared cache) and is cleared.
    const hinted = await ctx.app.inject({
      method: 'GET',
      url: '/download',
      headers: { cookie: 'signed_in=1; token=forged-token-of-no-session-at-all-000000000' },
    });
    expect(hinted.body).toContain('<main>nobody</main>');
    expect(hinted.headers['cache-control']).toBe('no-cache');
    expect(
      hinted.cookies
        .filter((c) => c.value === '')
        .map((c) => c.name)
        .sort(),
    ).toEqual(['signed_in', 'token']);
  });

  it('sends the plain shell when the renderer skips a page or fails on it', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-skip@example.com');
    for (const url of ['/cart', '/faq']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('ssr-state');
    }
  });
});
