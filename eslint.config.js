import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import importCycles from './eslint/import-cycles.js';
import serverBoundaries from './eslint/server-boundaries.js';
import webBoundaries from './eslint/web-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      '**/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Configuration is read once, in config/env.ts; nowhere else touches process.env.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/shared/src/**/*.ts'],
    ignores: [
      'apps/server/src/config/env.ts',
      'apps/server/src/server.ts',
      'apps/server/src/cli/**',
      '**/*.test.ts',
      '**/*.test.tsx',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings from config/env.ts.' },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // We do not use the React Compiler; react-hook-form's watch() is fine without it.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: [
      'apps/server/**/*.ts',
      'scripts/**/*.mjs',
      'e2e/**/*.ts',
      '*.config.{js,ts}',
      'apps/web/vite.config.ts',
      'playwright.config.ts',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // Web tests use fixtures from app code and a DOM.
    files: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/test/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  ...serverBoundaries,
  // No import cycles, server and web.
  ...importCycles,
  // The web's layering (shared → features → app, features apart, shop apart from the console).
  ...webBoundaries,
);
