#!/usr/bin/env node
// npm start: build the web app if missing or stale, then run the server (which applies
// migrations, loads demo data into an empty database outside production, and serves SPA + API).
import { spawn } from 'node:child_process';
import { buildWeb, ROOT, webBuildIsCurrent, webSourceStamp } from './lib.mjs';

const stamp = webSourceStamp();
if (webBuildIsCurrent(stamp)) {
  console.log('Web build is up to date.');
} else {
  console.log('Building the web app…');
  const code = await buildWeb(stamp);
  if (code !== 0) process.exit(code);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
