#!/usr/bin/env node
// npm test: every check — typecheck, lint and format, unit and API tests (PGlite and PostgreSQL), build,
// browser end-to-end. Runs every stage even after a failure, then prints one summary whose last
// line is `N passed, N failed` (also in test-results/summary.txt, and by stage in summary.json).
// `--only=vitest,e2e` runs some stages (of typecheck, lint, vitest, build, e2e); scripts/ci.mjs
// uses it to run the suite on two Node versions. `--e2e-files=e2e/a.spec.ts,…` runs only those
// browser test files.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureChromium } from './ensure-chromium.mjs';
import { buildWeb, ROOT, run, webBuildIsCurrent } from './lib.mjs';

const STAGES = ['typecheck', 'lint', 'vitest', 'build', 'e2e'];
const { values: options } = parseArgs({
  options: { only: { type: 'string' }, 'e2e-files': { type: 'string' } },
});
const e2eFiles = options['e2e-files']
  ? options['e2e-files']
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  : [];
const only = options.only ? options.only.split(',').map((s) => s.trim()) : STAGES;
const unknown = only.filter((s) => !STAGES.includes(s));
if (unknown.length) {
  console.error(`unknown stage ${unknown.join(', ')}; stages: ${STAGES.join(', ')}`);
  process.exit(2);
}

const results = path.join(ROOT, 'test-results');
fs.mkdirSync(results, { recursive: true });
console.log(`Node ${process.version}; stages: ${only.join(', ')}`);
const polyfills = `--import ${path.join(ROOT, 'scripts/node20-polyfills.mjs')}`;
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, polyfills].filter(Boolean).join(' ') };

/** @type {Array<{ name: string, passed: number, failed: number, skipped: number, note?: string }>} */
const stages = [];
const check = (name, code) =>
  stages.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 });

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

async function stage(key, title, fn) {
  if (!only.includes(key)) return;
  console.log(`\n━━ ${title} ━━`);
  const started = Date.now();
  await fn();
  console.log(`   (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

await stage('typecheck', 'Typecheck', async () => {
  // Two at a time: each tsc uses one core (the four one after another took 55 s here, two at a time 39 s).
  const projects = ['packages/shared', 'apps/server', 'apps/web', 'e2e'];
  const queue = [...projects];
  const codes = new Map();
  const worker = async () => {
    for (let project = queue.shift(); project; project = queue.shift())
      codes.set(project, await run('npx', ['tsc', '-p', project], { env }));
  };
  await Promise.all([worker(), worker()]);
  for (const project of projects) check(`typecheck ${project}`, codes.get(project));
});

await stage('lint', 'Lint', async () => {
  check('lint', await run('npx', ['eslint', '--max-warnings', '0', '.'], { env }));
  check('format', await run('npx', ['prettier', '--check', '--log-level', 'warn', '.'], { env }));
});

await stage(
  'vitest',
  'Unit and API tests (vitest: shared, web, server on PGlite and PostgreSQL)',
  async () => {
    const out = path.join(results, 'vitest.json');
    fs.rmSync(out, { force: true });
    const code = await run(
      'npx',
      ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
      { env },
    );
    const report = readJson(out);
    if (!report)
      stages.push({
        name: 'vitest',
        passed: 0,
        failed: 1,
        skipped: 0,
        note: `exited ${code} without a report`,
      });
    else {
      const failed = report.numFailedTests + (code !== 0 && report.numFailedTests === 0 ? 1 : 0);
      stages.push({
        name: 'vitest',
        passed: report.numPassedTests,
        failed,
        skipped: report.numPendingTests + report.numTodoTests,
      });
    }
  },
);

await stage('build', 'Build the web app', async () => {
  check('build', await buildWeb());
});

await stage('e2e', 'Browser tests (Playwright, Debian Chromium)', async () => {
  // Run alone, the browser tests still need a build of the current sources.
  if (!only.includes('build') && !webBuildIsCurrent()) check('build', await buildWeb());
  if (!ensureChromium()) {
    stages.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0, note: 'Chromium missing' });
    return;
  }
  const out = path.join(results, 'e2e.json');
  fs.rmSync(out, { force: true });
  const code = await run('npx', ['playwright', 'test', ...e2eFiles], {
    env: { ...env, PW_REPORTER: 'json' },
  });
  const report = readJson(out);
  if (!report)
    stages.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0, note: `exited ${code} without a report` });
  else {
    const s = report.stats;
    const failed = s.unexpected + s.flaky + (code !== 0 && s.unexpected === 0 ? 1 : 0);
    stages.push({ name: 'e2e', passed: s.expected, failed, skipped: s.skipped });
  }
});

const total = stages.reduce(
  (acc, s) => ({
    passed: acc.passed + s.passed,
    failed: acc.failed + s.failed,
    skipped: acc.skipped + s.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log('\n━━ Summary ━━');
for (const s of stages) {
  console.log(
    `  ${s.failed ? '✗' : '✓'} ${s.name.padEnd(28)} ${String(s.passed).padStart(4)} passed  ${String(s.failed).padStart(3)} failed${s.skipped ? `  ${s.skipped} skipped` : ''}${s.note ? `  (${s.note})` : ''}`,
  );
}
const line = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`;
fs.writeFileSync(path.join(results, 'summary.txt'), `${line}\n`);
fs.writeFileSync(
  path.join(results, 'summary.json'),
  `${JSON.stringify({ node: process.version, stages, total }, null, 2)}\n`,
);
console.log(line);
process.exit(total.failed > 0 ? 1 : 0);
