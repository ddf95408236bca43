import { randomBytes } from 'node:crypto';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * Writes build-manifest.json beside index.html and bakes the same id into the bundle, so a
 * running client can tell when a newer build is deployed (docs/product-rules.md#http-behaviour).
 */
function buildManifest(): Plugin {
  // Random, and short: it sits in the first page's code, where random characters do not compress.
  const buildId = process.env.BUILD_ID ?? randomBytes(6).toString('base64url');
  return {
    name: 'shop:build-manifest',
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(buildId) } }),
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'build-manifest.json',
        source: JSON.stringify({ buildId, builtAt: new Date().toISOString() }),
      });
    },
  };
}

const apiPort = process.env.API_PORT ?? '3001';

export default defineConfig({
  plugins: [react(), tailwindcss(), buildManifest()],
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // One chunk for what every page needs: the framework (React, the router, TanStack Query,
        // zustand) and the app's own shared helpers (the API client, money, the content pages'
        // data helpers). Fewer, larger chunks compress better than many small shared ones, which
        // keeps the first load of / within its budget; every page loads all of it anyway.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /(node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack|zustand)[\\/]|(src[\\/]lib[\\/]api-(client|error)|src[\\/]components[\\/]ui[\\/](cn|badge)|shared[\\/]src[\\/](money|content-preview)|src[\\/]features[\\/]content[\\/](api[\\/]content-api|components[\\/](format|preview-banner)|hooks[\\/]use-preview-mode))\.tsx?$)/,
            },
          ],
        },
      },
    },
  },
});
