import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4173);
// One fresh embedded database per run, shared by the server and the workers through the env.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'));
// Mail goes through a real SMTP server the tests start (e2e/global-setup.ts).
process.env.E2E_MAIL_DIR ??= path.join(process.env.E2E_DATA_DIR, 'mail');
process.env.E2E_SMTP_PORT ??= String(port + 1000);

export const E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  // A two-core CI machine runs the server, two browsers and the seed at once: allow more time there.
  timeout: process.env.CI ? 45_000 : 30_000,
  expect: { timeout: 7_000 },
  reporter:
    process.env.PW_REPORTER === 'json'
      ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]]
      : 'list',
  outputDir: 'test-results/e2e',
  use: {
    baseURL: E2E_BASE_URL,
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    // A failed test keeps its trace (DOM snapshots, network, console) but not a screenshot per
    // action: taking those cost a third of the browser's CPU on the two-core CI machine
    // (docs/decisions/007-reliability.md, "CI time"). The failure screenshot below is still taken.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Headless Chromium still builds the address bar's suggestion popup as a hidden web page in its
      // own renderer for every window; on a two-core machine it took ~40 % of the browser's CPU. The
      // tests never use the address bar. Each test's fresh context would also start a renderer
      // process of its own: one renderer per browser (a worker runs one test at a time; cookies and
      // storage stay separate per context) took the whole browser stage from 319 s to 267 s.
      // docs/decisions/007-reliability.md, "CI time".
      args: [
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
        '--renderer-process-limit=1',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      testIgnore: /(maintenance|analytics-consent)\.spec\.ts$/,
    },
    // Measurement IDs configured show every visitor the cookie banner (and change the policy), so
    // that file runs alone, after the others.
    {
      name: 'analytics',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      testMatch: /analytics-consent\.spec\.ts$/,
      dependencies: ['chromium'],
    },
    // Maintenance mode closes the shop for every visitor, so it runs alone, after everything else.
    {
      name: 'maintenance',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      testMatch: /maintenance\.spec\.ts$/,
      dependencies: ['analytics'],
    },
  ],
  webServer: {
    command: 'node --import tsx apps/server/src/server.ts',
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    // A new database is prepared and the demo drawn before it answers: 35 s on this machine while
    // others' tests run; the limit only guards against a server that never comes up.
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 180_000),
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: E2E_BASE_URL,
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      MAIL_FROM: '山嵐茶事 <no-reply@shanlan-tea.example>',
      LOG_LEVEL: 'warn',
      // A build elsewhere (parallel work on one machine): WEB_DIST=/tmp/x-dist npx playwright test
      ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    },
  },
});
