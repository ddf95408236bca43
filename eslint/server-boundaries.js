// Server layering as lint errors (docs/decisions/010-server-domains-and-layers.md; the rules in words:
// apps/server/src/modules/README.md and apps/server/src/plugins/README.md):
//   - routes (a module's index.ts and *routes.ts) → service → repository (repo.ts, *-repo.ts);
//   - routes never import a repository, not even their own module's;
//   - a repository holds SQL only: it imports no service and no routes;
//   - a module calls another module's service, never its repository;
//   - plugins/ and db/ import no module and no demo data;
//   - the demo data (seed/) calls modules' services, never a repository.
// Every relative import is judged by where it lands (resolved against the file), whatever its depth.
// Test files are exempt: they set up data through repositories. Exported as flat-config blocks,
// spread into eslint.config.js.
import path from 'node:path';

const SERVER_SRC = 'apps/server/src';

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
};

/** The message id for an import from `fromRel` to `toRel` (both relative to apps/server/src), or null when allowed. */
export function serverBoundaryViolation(fromRel, toRel) {
  const from = placeOf(fromRel);
  const to = placeOf(toRel);
  if (from.area === 'plugins' || from.area === 'db') {
    if (to.area === 'module') return 'infraToModule';
    return to.area === 'seed' ? 'infraToSeed' : null;
  }
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

const plugin = { meta: { name: 'server-boundaries' }, rules: { layers: layersRule } };

export default [
  {
    // One rule, judged by resolved path, so no later no-restricted-imports block can replace it.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    plugins: { 'server-boundaries': plugin },
    rules: { 'server-boundaries/layers': 'error' },
  },
];
