// Web layering as lint errors (docs/decisions/012-web-features-and-boundaries.md). Data flows one way:
// shared code (components/, lib/, hooks/, config/, @shop/shared) → features/<name> → app/ (the shop's
// routes compose features). So:
//   - a feature imports only shared code and its own files, never another feature, app/ or admin/;
//   - shared code imports neither features/, app/ nor admin/ (so components never reach a feature);
//   - the shop (app/, features/) never imports the console (admin/), except that the router loads
//     the console's entry as its own lazy chunk.
// Exported as flat-config blocks, spread at the end of eslint.config.js.
import path from 'node:path';

const WEB_SRC = 'apps/web/src';
const SHARED_DIRS = new Set(['components', 'lib', 'hooks', 'config']);
/** The one place the shop may reach the console: the router's lazy import of its entry. */
const CONSOLE_ENTRY = { from: 'app/router.tsx', to: 'admin/admin-app.tsx' };

/**
 * Where a file sits in the web app's layers, from its path relative to apps/web/src:
 * { layer: 'app' | 'feature' | 'shared' | 'console' | 'root', feature?: name }.
 */
function layerOf(relPath) {
  const [top, second] = relPath.split('/');
  if (top === 'app') return { layer: 'app' };
  if (top === 'admin') return { layer: 'console' };
  if (top === 'features' && second) return { layer: 'feature', feature: second };
  if (SHARED_DIRS.has(top)) return { layer: 'shared' };
  return { layer: 'root' };
}

const MESSAGES = {
  otherFeature:
    'A feature never imports another feature ({{target}}); let the route in app/ compose them, or move what both need to components/ or lib/.',
  featureToApp: 'A feature never imports app/ ({{target}}); app/ composes features, not the other way round.',
  sharedToFeature:
    'Shared code (components/, lib/, hooks/, config/) never imports a feature ({{target}}); pass what it needs in as props or arguments.',
  sharedToApp: 'Shared code (components/, lib/, hooks/, config/) never imports app/ ({{target}}).',
  shopToConsole:
    'The shop never imports the console ({{target}}); only the router lazy-loads admin/admin-app.tsx.',
};

/** The import's target relative to apps/web/src, or null when it is a package or lies outside. */
function targetOf(root, filename, source) {
  if (!source.startsWith('.')) return null;
  const resolved = path.resolve(path.dirname(filename), source);
  const rel = path.relative(root, resolved).split(path.sep).join('/');
  return rel.startsWith('..') ? null : rel;
}

/** The message id for an import from `fromRel` to `toRel` (both under apps/web/src), or null when allowed. */
export function boundaryViolation(fromRel, toRel, dynamic = false) {
  const from = layerOf(fromRel);
  const to = layerOf(toRel);
  if (from.layer === 'feature') {
    if (to.layer === 'feature' && to.feature !== from.feature) return 'otherFeature';
    if (to.layer === 'app') return 'featureToApp';
    if (to.layer === 'console') return 'shopToConsole';
  }
  if (from.layer === 'shared') {
    if (to.layer === 'feature') return 'sharedToFeature';
    if (to.layer === 'app') return 'sharedToApp';
    if (to.layer === 'console') return 'shopToConsole';
  }
  if (from.layer === 'app' && to.layer === 'console') {
    const entry = dynamic && fromRel === CONSOLE_ENTRY.from && toRel === CONSOLE_ENTRY.to;
    if (!entry) return 'shopToConsole';
  }
  return null;
}

const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Keeps the web app layered: shared code → features → app; features apart; the shop apart from the console.',
    },
    schema: [],
    messages: MESSAGES,
  },
  create(context) {
    const filename = context.filename;
    const root = path.resolve(context.cwd, WEB_SRC);
    const fromRel = path.relative(root, filename).split(path.sep).join('/');
    if (fromRel.startsWith('..')) return {};
    const check = (node, dynamic) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const toRel = targetOf(root, filename, node.value);
      if (toRel === null) return;
      const messageId = boundaryViolation(fromRel, toRel, dynamic);
      if (messageId) context.report({ node, messageId, data: { target: toRel } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, false),
      ExportNamedDeclaration: (node) => check(node.source, false),
      ExportAllDeclaration: (node) => check(node.source, false),
      ImportExpression: (node) => check(node.source, true),
    };
  },
};

const plugin = { meta: { name: 'web-boundaries' }, rules: { layers: layersRule } };

export default [
  {
    // Only app/ (and the entries: main.tsx with boot.tsx, and entry-server.tsx) compose features; nothing else reaches into app/.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [
      'apps/web/src/app/**',
      'apps/web/src/main.tsx',
      'apps/web/src/boot.tsx',
      'apps/web/src/entry-server.tsx',
      'apps/web/src/**/*.test.{ts,tsx}',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '../app/*', '../../app/*'],
              message: 'Only app/ composes features; import from shared or lib instead.',
            },
          ],
        },
      ],
    },
  },
  {
    // Layers by resolved path: a relative import is judged by where it lands, whatever its depth.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'web-boundaries': plugin },
    rules: { 'web-boundaries/layers': 'error' },
  },
];
