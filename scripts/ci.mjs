#!/usr/bin/env node
// CI (.ci/run, or `npm run test:ci`): the whole suite on the current Node LTS (package.json
// config.ltsNode, the version production should run), then the main browser flows again on
// this machine's Node. Typecheck, lint and the web build come out the same on either, so they run
// once. Ends with `N passed, N failed` summed over both runs (also test-results/summary.txt); each
// run's reports are kept under test-results/node-<version>/. See docs/decisions/002.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.mjs';
import { ensureLtsNode, ltsNodeVersion } from './lts-node.mjs';

const results = path.join(ROOT, 'test-results');
fs.mkdirSync(results, { recursive: true });
const started = Date.now();

/** Runs scripts/test.mjs on `node` (first on PATH, so npx, vitest and the browser tests' server use it too). */
function runSuite(label, node, args) {
  return new Promise((resolve) => {
    console.log(`\n████ ${label} ████`);
    const began = Date.now();
    for (const f of ['summary.json', 'vitest.json', 'e2e.json'])
      fs.rmSync(path.join(results, f), { force: true });
    const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
    const child = spawn(node, [path.join(ROOT, 'scripts/test.mjs'), ...args], {
      cwd: ROOT,
      env,
      stdio: 'inherit',
    });
    const finish = (code) => {
      const seconds = Math.round((Date.now() - began) / 1000);
      let summary = null;
      try {
        summary = JSON.parse(fs.readFileSync(path.join(results, 'summary.json'), 'utf8'));
      } catch {
        // No summary: the run itself broke; counted as one failure below.
      }
      const keep = path.join(results, label.match(/Node (v?[\d.]+)/)?.[1].replace(/^v?/, 'node-') ?? 'run');
      fs.mkdirSync(keep, { recursive: true });
      for (const f of ['summary.json', 'vitest.json', 'e2e.json']) {
        if (fs.existsSync(path.join(results, f))) fs.copyFileSync(path.join(results, f), path.join(keep, f));
      }
      const total = summary?.total ?? { passed: 0, failed: 1, skipped: 0 };
      resolve({
        label,
        seconds,
        total,
        note: summary ? (code === 0 ? '' : `exit ${code}`) : `no summary (exit ${code})`,
      });
    };
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
    child.on('error', () => finish(127));
  });
}

const version = ltsNodeVersion();
const runs = [];
const machine = process.version;
if (machine === `v${version}`) {
  runs.push(await runSuite(`Node ${version} (LTS, this machine's)`, process.execPath, []));
} else {
  const lts = ensureLtsNode(version);
  if (lts) runs.push(await runSuite(`Node ${version} (LTS)`, lts, []));
  else
    runs.push({
      label: `Node ${version} (LTS)`,
      seconds: 0,
      total: { passed: 0, failed: 1, skipped: 0 },
      note: 'could not be installed',
    });
  // Without the LTS run nothing was typechecked, linted or built: this run does everything then.
  // On the machine's Node: browser tests that start the shop's own server on it and drive its
  // main flows (server-rendered pages and hydration, accounts, the mall, checkout and payment):
  // what `npm start` does here. The whole suite twice outgrew CI's 20 minutes on this machine
  // (docs/decisions/002); the accounts flows (sign-up, sign-in, passwords: server logic the LTS run
  // covers) left this run when the suite neared 20 minutes again on a slow day (2026-11-27).
  // SHOP_CI_MACHINE_STAGES=vitest,e2e and SHOP_CI_MACHINE_E2E=all widen it.
  const stages = process.env.SHOP_CI_MACHINE_STAGES || 'e2e';
  const e2eFiles =
    process.env.SHOP_CI_MACHINE_E2E === 'all'
      ? []
      : ['e2e/server-rendering.spec.ts', 'e2e/mall.spec.ts', 'e2e/checkout.spec.ts'];
  const narrowed = [`--only=${stages}`, ...(e2eFiles.length ? [`--e2e-files=${e2eFiles.join(',')}`] : [])];
  runs.push(await runSuite(`Node ${machine.slice(1)} (this machine)`, process.execPath, lts ? narrowed : []));
}

const total = runs.reduce(
  (acc, r) => ({
    passed: acc.passed + r.total.passed,
    failed: acc.failed + r.total.failed,
    skipped: acc.skipped + (r.total.skipped ?? 0),
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log('\n████ CI summary ████');
for (const r of runs) {
  console.log(
    `  ${r.total.failed ? '✗' : '✓'} ${r.label.padEnd(36)} ${String(r.total.passed).padStart(5)} passed  ${String(r.total.failed).padStart(3)} failed  ${Math.floor(r.seconds / 60)} min ${r.seconds % 60} s${r.note ? `  (${r.note})` : ''}`,
  );
}
console.log(`  together ${Math.round((Date.now() - started) / 1000)} s`);
const line = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`;
fs.writeFileSync(path.join(results, 'summary.txt'), `${line}\n`);
console.log(line);
process.exit(total.failed > 0 ? 1 : 0);
