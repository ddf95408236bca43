#!/usr/bin/env node
// npm run bench:web: Lighthouse 13 on five pages of the shop as a phone sees them (Lighthouse's
// default config: mobile form factor, simulated throttling): /, /home and /faq as a first-time
// visitor (no session), /mall and the first product's page (members only) signed in. Prints a
// markdown table of the median run per page and writes it to test-results/bench-web.md, with what
// the next steps need: the layout shifts and their causes, the LCP element, failing accessibility
// audits. The median run's full report (HTML and JSON) and final screenshot go beside it, in
// test-results/bench-web/.
//
//   BENCH_WEB_RUNS   runs per page (default 3); the median run is reported: the run with the
//                    median performance score (with an even count, the lower of the middle two).
//                    Not Lighthouse's computeMedianRun, which picks the run nearest the median FCP
//                    and TTI: those barely move under simulated throttling, and on this machine it
//                    picked the lowest-scoring of three runs (62 of 62, 68, 78) for /mall.
//   WEB_DIST         a built web app to serve; without it apps/web/dist, built first when stale
//   CHROMIUM_PATH    the browser (default /usr/bin/chromium, as the browser tests)
//   DATABASE_URL     optional: PostgreSQL instead of a fresh embedded database
//
// Signing in: the server runs with NODE_ENV=test, whose POST /api/test/session makes a member and
// answers with the session cookies: `token` (HttpOnly, what the server trusts) and `signed_in`
// (readable by the page: the web app's router reads it from document.cookie to decide that a member
// page may render instead of redirecting to /login). A Cookie header added to every request
// (Lighthouse's extraHeaders) would reach the server but never document.cookie, so the router would
// still send the visitor to /login. The cookies are put into the browser's own cookie jar instead
// (CDP, through puppeteer-core, before each run): documents, API calls and document.cookie all see
// them (so does a server that renders the page from the document request's cookies). Lighthouse's
// reset before it loads the page clears caches and service workers, not cookies (its
// clearStorageTypes). Every run starts a fresh browser. After each run the page Lighthouse leaves behind is checked: it
// is still on the requested path (no redirect to /login) and shows what it should (the page's
// heading; the product's name on the product page, the first product's card on /mall), and on the
// member pages /api/auth/me answers with the member; a run that fails the check stops the bench.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { ensureChromium } from './ensure-chromium.mjs';
import { buildWeb, ROOT, webBuildIsCurrent, webSourceStamp } from './lib.mjs';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new Error(`BENCH_WEB_RUNS must be a whole number of at least 1 (got ${process.env.BENCH_WEB_RUNS})`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT_DIR = path.join(ROOT, 'test-results');
const REPORT_DIR = path.join(OUT_DIR, 'bench-web');
/** How many layout shifts and failing elements to list per page. */
const TOP = 5;
/** The browser's own version string, read from the first run (the user agent says only 156.0.0.0). */
let browserVersion = 'unknown';

// ---------------------------------------------------------------------------------------------
// The web build and the server
// ---------------------------------------------------------------------------------------------

/** The production build to serve: WEB_DIST as given, else apps/web/dist, built first when stale. */
async function webDist() {
  if (process.env.WEB_DIST) {
    const dist = path.resolve(ROOT, process.env.WEB_DIST);
    if (!fs.existsSync(path.join(dist, 'index.html')))
      throw new Error(`WEB_DIST=${process.env.WEB_DIST}: no index.html there`);
    return { dist, note: `WEB_DIST=${process.env.WEB_DIST}` };
  }
  const stamp = webSourceStamp();
  if (!webBuildIsCurrent(stamp)) {
    console.log('Building the web app…');
    const code = await buildWeb(stamp);
    if (code !== 0) throw new Error(`the web build failed (exit ${code})`);
  }
  return { dist: path.join(ROOT, 'apps/web/dist'), note: `apps/web/dist, build ${stamp}` };
}

/**
 * The commit measured, and whether the checkout had changes on top of it (several people work in
 * one checkout: a figure from uncommitted work should say so).
 */
function sourceNote() {
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return 'not a git checkout';
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  return `commit ${head.stdout.trim()}${dirty ? ' with uncommitted changes' : ''}`;
}

/** Starts the shop as scripts/bench.mjs does and resolves once it prints where it listens. */
function startShop(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`server did not start within 2 minutes: ${out.slice(-500)}`));
    }, 120_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const port = /running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port) });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out.slice(-500)}`)));
  });
}

/** Resolves when the child has exited (or at once if it already has). */
function stopped(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** A member's session through the test-only sign-in: the cookies as {name, value} pairs. */
async function memberSession(base) {
  const res = await fetch(`${base}/api/test/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // The route's roles are customer (a member of the shop), owner, staff and viewer.
    body: JSON.stringify({
      email: `bench-web-${Date.now()}@example.com`,
      displayName: '跑分會員',
      role: 'customer',
    }),
  });
  if (!res.ok) throw new Error(`test sign-in: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => {
    const [pair] = c.split(';');
    const at = pair.indexOf('=');
    return {
      name: pair.slice(0, at).trim(),
      value: pair.slice(at + 1).trim(),
      httpOnly: /;\s*httponly/i.test(c),
    };
  });
  if (!cookies.some((c) => c.name === 'token') || !cookies.some((c) => c.name === 'signed_in')) {
    throw new Error(
      `test sign-in set ${cookies.map((c) => c.name).join(', ') || 'no cookies'}; expected token and signed_in`,
    );
  }
  return cookies;
}

// ---------------------------------------------------------------------------------------------
// One Lighthouse run
// ---------------------------------------------------------------------------------------------

/**
 * Lighthouse on one URL in a fresh Chromium (as the lighthouse CLI does: nothing carried over
 * from the previous run but what Lighthouse itself would keep). Default config = mobile, simulated
 * throttling; only the two categories reported here are gathered.
 */
async function runLighthouse(base, page, cookies) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox'],
    logLevel: 'silent',
  });
  let browser;
  try {
    // defaultViewport null: puppeteer leaves the window alone; Lighthouse sets the phone's screen itself.
    browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    });
    browserVersion = await browser.version();
    const tab = await browser.newPage();
    if (page.signedIn) {
      // Into the browser's cookie jar, exactly as the sign-in response would have put them.
      const cdp = await tab.createCDPSession();
      await cdp.send('Network.setCookies', {
        cookies: cookies.map((c) => ({
          name: c.name,
          value: c.value,
          url: base,
          path: '/',
          httpOnly: c.httpOnly,
          sameSite: 'Lax',
        })),
      });
      await cdp.detach();
    }
    const result = await lighthouse(
      `${base}${page.path}`,
      { logLevel: 'error', output: 'html', onlyCategories: ['performance', 'accessibility'] },
      undefined,
      tab,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
    if (result.lhr.runtimeError) throw new LighthouseRunError(page, result.lhr.runtimeError);
    await checkRendered(tab, base, page);
    return { lhr: result.lhr, html: result.report };
  } finally {
    await browser?.disconnect().catch(() => {});
    await chrome.kill();
  }
}

/** Lighthouse could not measure the page this time (NO_NAVSTART, NO_FCP…: the trace, not the page). */
class LighthouseRunError extends Error {
  constructor(page, runtimeError) {
    super(`Lighthouse on ${page.path}: ${runtimeError.code} ${runtimeError.message}`);
    this.code = runtimeError.code;
  }
}

/** Lighthouse errors that say nothing about the page are tried again, at most this many times per run. */
const RETRIES = 2;

/** One run, again after a Lighthouse error (a page that fails its check is never retried: that is the page). */
async function runWithRetries(base, page, cookies, retried) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await runLighthouse(base, page, cookies);
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt >= RETRIES) throw error;
      retried.push(`${page.path}: ${error.code}`);
      process.stdout.write(`${error.code}, again… `);
    }
  }
}

/**
 * The page Lighthouse measured is the one meant: still on the requested path (a member page
 * without a session would have gone to /login), showing the expected text, and signed in when it
 * should be (the server's own answer, /api/auth/me, from inside the page).
 */
async function checkRendered(tab, base, page) {
  // This function runs in the page, where document and location are the browser's.
  /* global document, location */
  const seen = await tab.evaluate(async () => {
    const me = await fetch('/api/auth/me', { credentials: 'same-origin' })
      .then((r) => r.json())
      .catch(() => null);
    return {
      path: location.pathname,
      heading: document.querySelector('h1')?.innerText ?? '',
      text: document.body.innerText,
      cookie: document.cookie,
      me,
    };
  });
  const problems = [];
  if (seen.path !== page.path) problems.push(`ended on ${seen.path} instead of ${page.path}`);
  if (page.expectHeading && !seen.heading.includes(page.expectHeading))
    problems.push(`has the heading 「${seen.heading}」, not 「${page.expectHeading}」`);
  if (page.expectText && !seen.text.includes(page.expectText))
    problems.push(`does not show 「${page.expectText}」`);
  const signedIn = Boolean(seen.me?.user);
  if (page.signedIn && !signedIn)
    problems.push(`is not signed in (/api/auth/me: ${JSON.stringify(seen.me)})`);
  if (page.signedIn && !/(^|;\s*)signed_in=/.test(seen.cookie))
    problems.push('has no signed_in cookie in document.cookie');
  if (problems.length > 0) throw new Error(`${base}${page.path} ${problems.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Reading a Lighthouse result
// ---------------------------------------------------------------------------------------------

const audit = (lhr, id) => lhr.audits[id];
const numeric = (lhr, id) => audit(lhr, id)?.numericValue ?? NaN;
const score100 = (category) =>
  category?.score === null || category?.score === undefined ? NaN : Math.round(category.score * 100);

/** Bytes received for one resource type, from the resource-summary audit (transfer sizes, headers included). */
function bytesOf(lhr, resourceType) {
  const row = audit(lhr, 'resource-summary')?.details?.items?.find(
    (item) => item.resourceType === resourceType,
  );
  return row?.transferSize ?? NaN;
}

function figures(lhr) {
  return {
    performance: score100(lhr.categories.performance),
    fcp: numeric(lhr, 'first-contentful-paint'),
    lcp: numeric(lhr, 'largest-contentful-paint'),
    tbt: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    si: numeric(lhr, 'speed-index'),
    accessibility: score100(lhr.categories.accessibility),
    js: bytesOf(lhr, 'script'),
    total: numeric(lhr, 'total-byte-weight'),
  };
}

/** A DOM node as Lighthouse describes it: its selector and a short label. */
function describeNode(node) {
  if (!node || node.type !== 'node') return '(no element)';
  const label = (node.nodeLabel ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
  const selector = node.selector ?? node.path ?? '';
  return `\`${selector || node.snippet}\`${label ? ` (「${label}」)` : ''}`;
}

/** The largest layout shifts (the layout-shifts audit): element, score and what Chrome says caused it. */
function layoutShifts(lhr) {
  const items = audit(lhr, 'layout-shifts')?.details?.items ?? [];
  return items
    .slice()
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
    .slice(0, TOP)
    .map((item) => {
      const causes = (item.subItems?.items ?? []).map(
        (sub) =>
          `${sub.cause ?? '?'}${sub.extra?.type === 'node' ? ` ${describeNode(sub.extra)}` : sub.extra?.url ? ` ${sub.extra.url}` : ''}`,
      );
      return { element: describeNode(item.node), score: item.score ?? 0, causes };
    });
}

/** The LCP element and how its time splits (the lcp-breakdown insight). */
function lcpElement(lhr) {
  const details = audit(lhr, 'lcp-breakdown-insight')?.details;
  const parts = details?.type === 'list' ? details.items : [];
  let node = null;
  let phases = [];
  for (const part of parts) {
    if (part.type === 'node') node = part;
    if (part.type === 'table') {
      phases = (part.items ?? [])
        .filter((row) => typeof row.duration === 'number')
        .map((row) => `${phaseName(row)} ${Math.round(row.duration)} ms`);
    }
  }
  // Should a later Lighthouse put the node in a table row instead, take it from there.
  if (!node)
    node = parts.flatMap((p) => p.items ?? []).find((row) => row?.node?.type === 'node')?.node ?? null;
  return { element: node ? describeNode(node) : '(not reported)', phases };
}

function phaseName(row) {
  const label = row.label;
  if (typeof label === 'string') return label;
  return row.subpart ?? row.phase ?? 'part';
}

/** Accessibility audits that failed (scored below 1; manual and not-applicable ones are not failures). */
function accessibilityFailures(lhr) {
  const refs = lhr.categories.accessibility?.auditRefs ?? [];
  return refs
    .map((ref) => audit(lhr, ref.id))
    .filter(
      (a) =>
        a &&
        (a.scoreDisplayMode === 'error' ||
          (a.score !== null &&
            a.score < 1 &&
            !['manual', 'notApplicable', 'informative'].includes(a.scoreDisplayMode))),
    )
    .map((a) => ({
      id: a.id,
      title:
        a.scoreDisplayMode === 'error'
          ? `${a.title} (the audit itself failed: ${a.errorMessage ?? 'no message'})`
          : a.title,
      elements: (a.details?.items ?? []).slice(0, TOP).map((item) => describeNode(item.node)),
      more: Math.max(0, (a.details?.items?.length ?? 0) - TOP),
    }));
}

/**
 * The run with the median performance score; with an even count the lower of the two middle ones
 * (the goal is a floor, so the doubtful side). Equal scores keep the order they ran in.
 */
function medianByScore(runs) {
  const byScore = runs
    .slice()
    .sort((a, b) => (figures(a.lhr).performance || 0) - (figures(b.lhr).performance || 0));
  return byScore[Math.floor((byScore.length - 1) / 2)];
}

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '—');
const millis = (ms) => (Number.isFinite(ms) ? `${Math.round(ms).toLocaleString('en-US')} ms` : '—');
const kb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KB` : '—');
const shift = (cls) => (Number.isFinite(cls) ? cls.toFixed(3) : '—');
const whole = (n) => (Number.isFinite(n) ? String(n) : '—');
const range = (values, format) => {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '—';
  const lo = format(Math.min(...finite));
  const hi = format(Math.max(...finite));
  return lo === hi ? lo : `${lo}–${hi}`;
};

/** What the run emulated, from the result itself (so the line cannot drift from Lighthouse's defaults). */
function settingsOf(lhr) {
  const { formFactor, throttlingMethod, throttling = {}, screenEmulation = {} } = lhr.configSettings ?? {};
  return [
    `${formFactor} ${screenEmulation.width}×${screenEmulation.height} @${screenEmulation.deviceScaleFactor}x`,
    `${throttlingMethod === 'simulate' ? 'simulated' : throttlingMethod} throttling (RTT ${throttling.rttMs} ms, ${Math.round(throttling.throughputKbps)} kbit/s, CPU ×${throttling.cpuSlowdownMultiplier})`,
  ].join(', ');
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

if (!ensureChromium()) process.exit(1);
const { dist, note: buildNote } = await webDist();

// Its own empty database (demo data loaded at start) in a temporary folder, removed at the end.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-web-'));
// NODE_ENV=test only adds the sign-in helper (and keeps the periodic jobs quiet); the pages and
// the API are the same code. PORT 0: any free port.
const shop = await startShop({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  WEB_DIST: dist,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  SEED_DEMO: '1',
  PUBLIC_URL: 'http://127.0.0.1',
}).catch((error) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  throw error;
});
const base = `http://127.0.0.1:${shop.port}`;

const results = [];
/** Runs that Lighthouse had to make again, and why (reported: a machine too busy shows here first). */
const retried = [];
try {
  // The product page: the first product of the catalogue's default list (what /mall shows first).
  const list = await (await fetch(`${base}/api/catalog/products`)).json();
  const first = list.items?.[0];
  if (!first) throw new Error('the catalogue is empty: no product page to measure');
  const cookies = await memberSession(base);
  const pages = [
    { path: '/', name: 'landing', signedIn: false },
    { path: '/home', name: 'home', signedIn: false, expectHeading: '關於山嵐' },
    { path: '/faq', name: 'faq', signedIn: false, expectHeading: '常見問題' },
    { path: '/mall', name: 'mall', signedIn: true, expectText: first.name },
    { path: `/mall/${first.slug}`, name: 'product', signedIn: true, expectHeading: first.name },
  ];

  // Warm the server (JIT, the catalogue index, the shells' cache) so the first run is not the odd one out.
  const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  for (const page of pages)
    await fetch(`${base}${page.path}`, { headers: page.signedIn ? { cookie: cookieHeader } : {} }).then((r) =>
      r.arrayBuffer(),
    );

  fs.mkdirSync(REPORT_DIR, { recursive: true });
  for (const page of pages) {
    const runs = [];
    for (let i = 1; i <= RUNS; i++) {
      process.stdout.write(
        `Lighthouse ${page.path} (${page.signedIn ? 'signed in' : 'anonymous'}), run ${i} of ${RUNS}… `,
      );
      const run = await runWithRetries(base, page, cookies, retried);
      const f = figures(run.lhr);
      console.log(`performance ${whole(f.performance)}, LCP ${seconds(f.lcp)}, CLS ${shift(f.cls)}`);
      runs.push(run);
    }
    const medianRun = medianByScore(runs);
    const median = medianRun.lhr;
    fs.writeFileSync(path.join(REPORT_DIR, `${page.name}.html`), medianRun.html);
    fs.writeFileSync(path.join(REPORT_DIR, `${page.name}.json`), JSON.stringify(median));
    const shot = audit(median, 'final-screenshot')?.details?.data;
    if (typeof shot === 'string' && shot.startsWith('data:image/')) {
      const [, ext, data] = /^data:image\/(\w+);base64,(.*)$/.exec(shot) ?? [];
      if (data)
        fs.writeFileSync(
          path.join(REPORT_DIR, `${page.name}.${ext === 'jpeg' ? 'jpg' : ext}`),
          Buffer.from(data, 'base64'),
        );
    }
    // The layout shifts are listed from the run that shifted most: whether the page shifts at all
    // can depend on what arrives before the first paint, and the median run may be a lucky one.
    const worstShift = runs.reduce((worst, r) =>
      numeric(r.lhr, 'cumulative-layout-shift') > numeric(worst.lhr, 'cumulative-layout-shift') ? r : worst,
    ).lhr;
    results.push({
      page,
      median,
      worstShift,
      all: runs.map((r) => figures(r.lhr)),
      benchmarkIndex: runs.map((r) => r.lhr.environment?.benchmarkIndex ?? NaN),
    });
  }
} finally {
  await stopped(shop.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// The report: the table, then per page what the next step (CLS ≤ 0.02, performance ≥ 95) needs.
const sample = results[0].median;
const cpu = os.cpus();
const lines = [];
lines.push(
  `Lighthouse ${sample.lighthouseVersion} ${new Date().toISOString()} — default config: ${settingsOf(sample)}; median of ${RUNS} run${RUNS === 1 ? '' : 's'} per page`,
  `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}, ${browserVersion}, Lighthouse benchmark index ${range(
    results.flatMap((r) => r.benchmarkIndex),
    (n) => String(Math.round(n)),
  )} (higher is faster; a wide range means a busy machine); source: ${sourceNote()}; web: ${buildNote}; database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}`,
  '',
  '| page | signed in | performance | FCP | LCP | TBT | CLS | Speed Index | accessibility | JS received | total received |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(({ page, median }) => {
    const f = figures(median);
    return `| ${page.path} | ${page.signedIn ? 'yes' : 'no'} | ${whole(f.performance)} | ${seconds(f.fcp)} | ${seconds(f.lcp)} | ${millis(f.tbt)} | ${shift(f.cls)} | ${seconds(f.si)} | ${whole(f.accessibility)} | ${kb(f.js)} | ${kb(f.total)} |`;
  }),
  '',
  'Bytes are as received (transfer sizes, response headers included), in KB of 1,024 bytes; "JS received" is the scripts only. Full reports of the median runs: test-results/bench-web/.',
  '',
);
if (RUNS > 1) {
  lines.push(
    `Spread over the ${RUNS} runs (lowest–highest):`,
    '',
    '| page | performance | LCP | TBT | CLS |',
    '|---|---:|---:|---:|---:|',
    ...results.map(
      ({ page, all }) =>
        `| ${page.path} | ${range(
          all.map((f) => f.performance),
          whole,
        )} | ${range(
          all.map((f) => f.lcp),
          seconds,
        )} | ${range(
          all.map((f) => f.tbt),
          millis,
        )} | ${range(
          all.map((f) => f.cls),
          shift,
        )} |`,
    ),
    '',
  );
}
lines.push(
  `### LCP element (median run) and layout shifts (${RUNS > 1 ? 'the run with the highest CLS' : 'the run'})`,
  '',
);
for (const { page, median, worstShift } of results) {
  const lcp = lcpElement(median);
  const shifts = layoutShifts(worstShift);
  // The breakdown is Chrome's trace as it happened on this machine, before Lighthouse's throttling
  // simulation: it shows where the time goes, not the simulated LCP's parts.
  lines.push(
    `**${page.path}** — LCP ${seconds(figures(median).lcp)}: ${lcp.element}${lcp.phases.length ? ` (as observed, unthrottled: ${lcp.phases.join(', ')})` : ''}`,
  );
  lines.push(`- layout shifts, CLS ${shift(figures(worstShift).cls)}${shifts.length === 0 ? ': none' : ':'}`);
  for (const s of shifts)
    lines.push(
      `  - ${s.score.toFixed(3)} ${s.element}${s.causes.length ? ` — cause: ${s.causes.join('; ')}` : ''}`,
    );
  lines.push('');
}
lines.push('### Failing accessibility audits (median run)', '');
let anyFailure = false;
for (const { page, median } of results) {
  for (const failure of accessibilityFailures(median)) {
    anyFailure = true;
    lines.push(
      `- ${page.path} \`${failure.id}\` ${failure.title}${failure.elements.length ? `: ${failure.elements.join(', ')}${failure.more ? ` and ${failure.more} more` : ''}` : ''}`,
    );
  }
}
if (!anyFailure) lines.push('- none');
// Whatever Lighthouse itself warned about (stored data, a slow page, a timed-out cache clear…).
const warnings = results.flatMap(({ page, median }) =>
  (median.runWarnings ?? []).map((w) => `- ${page.path}: ${w}`),
);
if (warnings.length > 0) lines.push('', '### Lighthouse warnings (median run)', '', ...warnings);
if (retried.length > 0) lines.push('', `Runs made again after a Lighthouse error: ${retried.join('; ')}.`);

const report = lines.join('\n');
console.log(`\n${report}\n`);
fs.mkdirSync(OUT_DIR, { recursive: true });
fs.writeFileSync(path.join(OUT_DIR, 'bench-web.md'), `${report}\n`);
process.exit(0);
