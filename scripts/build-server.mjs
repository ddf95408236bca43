#!/usr/bin/env node
// Compiles the server (apps/server/src with packages/shared) into apps/server/dist with esbuild:
// production runs that JavaScript, with no TypeScript transpiler at run time.
//   node scripts/build-server.mjs                 build
//   node scripts/build-server.mjs --if-stale      build only when the sources changed since the last build
//                                 … --quiet       and say nothing but problems (npm run backup and the like)
//   node scripts/build-server.mjs --outdir <dir>  compile into another folder (tests); it must lie
//                                                 inside apps/server, where the packages are found
// Messages go to stderr, so a command run after it (npm run backup …) keeps a clean stdout.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer, compileServer, ensureServerBuild } from './lib.mjs';

const { values } = parseArgs({
  options: { 'if-stale': { type: 'boolean' }, quiet: { type: 'boolean' }, outdir: { type: 'string' } },
});
const log = values.quiet ? () => undefined : (line) => console.error(line);
const code = values.outdir
  ? await compileServer(path.resolve(values.outdir))
  : values['if-stale']
    ? await ensureServerBuild({ log })
    : await buildServer();
if (code !== 0) console.error('The server build failed.');
process.exit(code === 0 ? 0 : 1);
