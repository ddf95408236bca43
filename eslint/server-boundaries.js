// Server layering as lint errors (docs/decisions/010-server-domains-and-layers.md and
// docs/decisions/035-one-way-arrows.md; the rules in words: apps/server/src/modules/README.md and
// apps/server/src/plugins/README.md):
//   - routes (a module's index.ts and *routes.ts) → service → repository (repo.ts, *-repo.ts);
//   - routes never import a repository, not even their own module's;
//   - a repository holds SQL only: it imports no service and no routes;
//   - a module calls another module's service, never its repository;
//   - no domain imports the console (modules/admin): it only assembles, and app.ts registers it;
//   - plugins/ and db/ import no module and no demo data;
//   - the demo data (seed/) calls modules' services, never a repository.
// Every relative import is judged by where it lands (resolved against the file), whatever its depth.
// Two more rules judge what a module's file imports from packages:
//   - no-fastify: services and repositories import no fastify (HTTP stays in routes, *-plugin.ts
//     and http.ts);
//   - sql-in-repos: in modules/, SQL (drizzle-orm's query builders and `sql`, the schema's tables)
//     only in repositories; types may be imported anywhere.
// Test files are exempt: they set up data through repositories. The few files a rule does not fit
// are listed in EXCEPTIONS below, each with its reason. Exported as flat-config blocks, spread into
// eslint.config.js.
import path from 'node:path';

const SERVER_SRC = 'apps/server/src';
/** The console module: it assembles every domain's console routes, so no domain may import it. */
const CONSOLE = 'admin';
/** The one file that registers the console. */
const CONSOLE_HOST = 'app.ts';

/**
 * What a file under apps/server/src is: { area: 'module' | 'plugins' | 'db' | 'seed' | 'other',
 * module?, role?: 'routes' | 'service' | 'repo' }.
 */
export function placeOf(relPath) {
  const parts = relPath.split('/');
  const base = parts[parts.length - 1];
  if (parts[0] === 'modules' && parts.length >= 3) {
    const role = /(^|-)repo\.ts$/.test(base)
      ? 'repo'
      : base === 'index.ts' || /(^|-)routes\.ts$/.test(base)
        ? 'routes'
        : 'service';
    return { area: 'module', module: parts[1], role };
  }
  if (parts[0] === 'plugins') return { area: 'plugins' };
  if (parts[0] === 'db') return { area: 'db' };
  if (parts[0] === 'seed') return { area: 'seed' };
  return { area: 'other' };
}

const MESSAGES = {
  routesToRepo:
    'Routes never import a repository ({{target}}): parse, authorise and call the service, which calls the repository.',
  otherModuleRepo:
    "A module calls another module's service, never its repository ({{target}}); add a service function there.",
  repoToUpper:
    'A repository holds SQL only and imports no service or routes ({{target}}); let the service call both.',
  infraToModule:
    'plugins/ and db/ import no module ({{target}}): let the module register itself, or wire it in app.ts.',
  infraToSeed: 'plugins/ and db/ import no demo data ({{target}}); the command line and server.ts load it.',
  seedToRepo: 'Demo data goes through the services it seeds, never a repository ({{target}}).',
  toConsole:
    'No domain imports the console ({{target}}): it only assembles. Put what both need in the domain that owns it, or in plugins/.',
};

/** The message id for an import from `fromRel` to `toRel` (both relative to apps/server/src), or null when allowed. */
export function serverBoundaryViolation(fromRel, toRel) {
  const from = placeOf(fromRel);
  const to = placeOf(toRel);
  if (from.area === 'plugins' || from.area === 'db') {
    if (to.area === 'module') return 'infraToModule';
    return to.area === 'seed' ? 'infraToSeed' : null;
  }
  if (to.area === 'module' && to.module === CONSOLE && from.module !== CONSOLE && fromRel !== CONSOLE_HOST)
    return 'toConsole';
  if (from.area === 'seed') return to.area === 'module' && to.role === 'repo' ? 'seedToRepo' : null;
  if (from.area !== 'module' || to.area !== 'module') return null;
  if (to.role === 'repo') {
    if (from.role === 'routes') return 'routesToRepo';
    if (to.module !== from.module) return 'otherModuleRepo';
  }
  if (from.role === 'repo' && to.role !== 'repo') return 'repoToUpper';
  return null;
}

/** The import's target relative to apps/server/src, or null when it is a package or lies outside. */
function targetOf(root, filename, source) {
  if (!source.startsWith('.')) return null;
  const rel = path
    .relative(root, path.resolve(path.dirname(filename), source))
    .split(path.sep)
    .join('/');
  return rel.startsWith('..') ? null : rel;
}

const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Keeps the server layered: routes → service → repository; modules meet through services; plugins/ and db/ import no module.',
    },
    schema: [],
    messages: MESSAGES,
  },
  create(context) {
    const filename = context.filename;
    const root = path.resolve(context.cwd, SERVER_SRC);
    const fromRel = path.relative(root, filename).split(path.sep).join('/');
    if (fromRel.startsWith('..')) return {};
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const toRel = targetOf(root, filename, node.value);
      if (toRel === null) return;
      const messageId = serverBoundaryViolation(fromRel, toRel);
      if (messageId) context.report({ node, messageId, data: { target: toRel } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/** A module's file that faces HTTP by its name: routes, a Fastify plugin the module exports, its HTTP helpers. */
function facesHttp(place, relPath) {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  return place.role === 'routes' || /(^|-)plugin\.ts$/.test(base) || base === 'http.ts';
}

const FASTIFY = /^(fastify|fastify-[^/]+|@fastify\/[^/]+)(\/.*)?$/;

const noFastifyRule = {
  meta: {
    type: 'problem',
    docs: { description: "A module's services and repositories import no fastify, not even a type." },
    schema: [],
    messages: {
      fastify:
        'Services and repositories import no fastify ({{source}}): take plain values (db, the actor, settings) and let the routes read the request.',
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, SERVER_SRC);
    const fromRel = path.relative(root, context.filename).split(path.sep).join('/');
    const place = placeOf(fromRel);
    if (fromRel.startsWith('..') || place.area !== 'module' || facesHttp(place, fromRel)) return {};
    const check = (node) => {
      if (node?.type === 'Literal' && typeof node.value === 'string' && FASTIFY.test(node.value))
        context.report({ node, messageId: 'fastify', data: { source: node.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.literal ?? node.argument),
    };
  },
};

/** Whether an import brings in values (not only types). */
const importsValues = (node) =>
  node.importKind !== 'type' &&
  (node.specifiers.length === 0 ||
    node.specifiers.some((s) => s.type !== 'ImportSpecifier' || s.importKind !== 'type'));

const sqlInReposRule = {
  meta: {
    type: 'problem',
    docs: { description: "In modules/, SQL lives only in a module's repositories (repo.ts, *-repo.ts)." },
    schema: [],
    messages: {
      sql: 'SQL belongs in a repository (repo.ts or *-repo.ts), not here ({{source}}): add a named function there and call it.',
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, SERVER_SRC);
    const filename = context.filename;
    const fromRel = path.relative(root, filename).split(path.sep).join('/');
    const place = placeOf(fromRel);
    if (fromRel.startsWith('..') || place.area !== 'module' || place.role === 'repo') return {};
    return {
      ImportDeclaration(node) {
        const source = node.source.value;
        const isSql =
          source === 'drizzle-orm' ||
          source.startsWith('drizzle-orm/') ||
          targetOf(root, filename, source) === 'db/schema.ts';
        if (isSql && importsValues(node)) context.report({ node, messageId: 'sql', data: { source } });
      },
    };
  },
};

/**
 * Files a rule does not fit, each with why. Keep it short: a new entry needs a reason a reviewer
 * accepts. Paths are flat-config globs from the repository root.
 */
const SANDBOXES = {
  files: ['apps/server/src/modules/*/sandbox.ts', 'apps/server/src/modules/*/sandbox/**/*.ts'],
  reason:
    "Stand-ins for ECPay's servers, never registered in production: each is an HTTP server with its own tables, kept in one place like the gateway it imitates.",
};
export const EXCEPTIONS = {
  'no-fastify': [
    SANDBOXES,
    {
      files: ['apps/server/src/modules/orders/deps.ts'],
      reason:
        "Builds the order service's dependencies from the Fastify app for the routes: route-side wiring.",
    },
  ],
  'sql-in-repos': [
    SANDBOXES,
    {
      files: ['apps/server/src/modules/backup/**/*.ts'],
      reason:
        "The backup dumps and restores the whole database below every domain: its SQL reads the catalogue, cursors and the migrations table, not a domain's rows.",
    },
    {
      files: ['apps/server/src/modules/test-support/**/*.ts'],
      reason:
        'Routes registered only when the server runs for the browser tests: they set data up directly, as test files do.',
    },
  ],
};

const plugin = {
  meta: { name: 'server-boundaries' },
  rules: { layers: layersRule, 'no-fastify': noFastifyRule, 'sql-in-repos': sqlInReposRule },
};

const SERVER_FILES = ['apps/server/src/**/*.ts'];
const TESTS = ['apps/server/src/**/*.test.ts'];
const except = (rule) => EXCEPTIONS[rule].flatMap((e) => e.files);

export default [
  {
    // Judged by resolved path, so no later no-restricted-imports block can replace it.
    files: SERVER_FILES,
    ignores: TESTS,
    plugins: { 'server-boundaries': plugin },
    rules: { 'server-boundaries/layers': 'error' },
  },
  {
    files: SERVER_FILES,
    ignores: [...TESTS, ...except('no-fastify')],
    plugins: { 'server-boundaries': plugin },
    rules: { 'server-boundaries/no-fastify': 'error' },
  },
  {
    files: SERVER_FILES,
    ignores: [...TESTS, ...except('sql-in-repos')],
    plugins: { 'server-boundaries': plugin },
    rules: { 'server-boundaries/sql-in-repos': 'error' },
  },
];
