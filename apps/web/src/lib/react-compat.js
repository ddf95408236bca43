// React's API as the app ships it: preact/compat (docs/decisions/025-preact.md). Every `import ...
// from 'react'` in the app and in the libraries it bundles resolves here (react-on-preact.ts).
// Plain JavaScript: preact/compat's types are `export =`, which TypeScript cannot `export *` from.
export * from 'preact/compat';
export { default } from 'preact/compat';

/**
 * React Router's RouterProvider calls React 19's useOptimistic, which preact/compat lacks. The
 * router only sets an optimistic state when it is given `useTransitions: true` (we never do), so
 * handing back the state it passes in is the whole of what it needs.
 */
export function useOptimistic(state) {
  return [state, () => {}];
}
