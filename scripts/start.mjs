#!/usr/bin/env node
// npm start: build the web app and the server when missing or stale, then run the compiled server
// (`node <SERVER_NODE_FLAGS> apps/server/dist/server.js`; no TypeScript transpiler at run time).
// The server gets its database ready first (migrations; outside production, the demo data into an
// empty database, drawn by a short-lived process of its own) and serves the SPA and the API.
import { spawn } from 'node:child_process';
import {
  buildWeb,
  ensureServerBuild,
  ROOT,
  serverArgs,
  serverBuildIsCurrent,
  webBuildIsCurrent,
  webSourceStamp,
} from './lib.mjs';

const stamp = webSourceStamp();
if (webBuildIsCurrent(stamp)) {
  console.log('Web build is up to date.');
} else {
  console.log('Building the web app…');
  const code = await buildWeb(stamp);
  if (code !== 0) process.exit(code);
}
if (serverBuildIsCurrent()) {
  console.log('Server build is up to date.');
} else {
  const code = await ensureServerBuild({ log: (line) => console.log(line) });
  if (code !== 0) process.exit(code);
}

const server = spawn(process.execPath, serverArgs(), { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
