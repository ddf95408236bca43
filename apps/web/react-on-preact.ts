import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The app is written against React's API and ships on preact/compat (docs/decisions/025-preact.md):
 * these aliases send every import of react and react-dom, the app's and its libraries', to Preact,
 * in the browser build, the server renderer's build and the web unit tests alike. Paths are
 * absolute so a library's import resolves to the same module as the app's.
 */
const require = createRequire(import.meta.url);
const preact = path.dirname(require.resolve('preact/package.json'));

export const reactOnPreact = [
  { find: /^react-dom\/client$/, replacement: path.join(preact, 'compat/client.mjs') },
  { find: /^react-dom\/server$/, replacement: path.join(preact, 'compat/server.mjs') },
  { find: /^react-dom\/test-utils$/, replacement: path.join(preact, 'test-utils/dist/testUtils.mjs') },
  { find: /^react-dom$/, replacement: path.join(preact, 'compat/dist/compat.mjs') },
  { find: /^react\/jsx-runtime$/, replacement: path.join(preact, 'compat/jsx-runtime.mjs') },
  { find: /^react\/jsx-dev-runtime$/, replacement: path.join(preact, 'compat/jsx-dev-runtime.mjs') },
  { find: /^react$/, replacement: path.resolve(import.meta.dirname, 'src/lib/react-compat.js') },
];

/**
 * For the unit tests: Testing Library's ES module build (its CommonJS one would load React itself,
 * past the aliases), and the libraries that import React compiled by Vite so the aliases reach them.
 */
export const testsOnPreact = {
  alias: [...reactOnPreact, { find: /^@testing-library\/react$/, replacement: path.join(path.dirname(require.resolve('@testing-library/react/package.json')), 'dist/@testing-library/react.esm.js') }],
  inline: [/@testing-library[\\/](react|dom)/, /react-router/, /@tanstack/, /react-hook-form/, /@hookform/, /zustand/],
};
