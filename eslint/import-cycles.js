// Import cycles refused, on the server and the web (docs/decisions/035-one-way-arrows.md):
// import-x/no-cycle follows every relative import (with its .ts/.tsx extension) from the linted
// file and reports one that comes back to it. Type-only imports are not followed: they vanish when
// the code is compiled, so they make no cycle at run time. Exported as flat-config blocks, spread
// into eslint.config.js.
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const CYCLE_FILES = ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'];

export default [
  {
    files: CYCLE_FILES,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
];
