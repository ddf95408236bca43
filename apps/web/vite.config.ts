import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
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

/** Text assets worth compressing ahead of time (pictures and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|css|svg|json|txt|webmanifest|xml)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses every text asset once, at build time, at the highest levels (brotli 11, gzip 9),
 * beside the file (x.js.br, x.js.gz); the server sends those as they are (@fastify/static's
 * preCompressed) instead of compressing each response at a low level (docs/decisions/021).
 * node:zlib does it in a few lines, so no plugin dependency.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shop:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const dir = path.join(outDir, 'assets');
      const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const data = await readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
                [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
              },
            }),
            gzipAsync(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

const apiPort = process.env.API_PORT ?? '3001';

/**
 * The server renderer's build (docs/decisions/024): src/entry-server.tsx into dist/ssr, one
 * self-contained ES module (every package bundled in, so it runs wherever dist is copied) that the
 * server imports. It runs after the browser's build and shares its build id.
 */
const ssrBuild = defineConfig({
  plugins: [react(), tailwindcss()],
  // React's production server renderer only, whatever NODE_ENV the server runs with.
  define: {
    __BUILD_ID__: JSON.stringify(readBuildId()),
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: 'dist/ssr',
    emptyOutDir: true,
    copyPublicDir: false,
    target: 'node20',
    sourcemap: false,
    reportCompressedSize: false,
    // One file: modules run in import order (lib/server-storage.ts before the stores that read it).
    rollupOptions: { output: { entryFileNames: 'entry-server.js', codeSplitting: false } },
  },
});

/** The browser build's id (dist/build-manifest.json), so both halves of a build agree. */
function readBuildId(): string {
  try {
    return (
      JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'dist/build-manifest.json'), 'utf8')) as {
        buildId: string;
      }
    ).buildId;
  } catch {
    return process.env.BUILD_ID ?? 'dev';
  }
}

const browserBuild = defineConfig({
  plugins: [react(), tailwindcss(), buildManifest(), precompress()],
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: {
      polyfill: false,
      // A lazy chunk's preload list leaves out the chunks every page has loaded before any lazy
      // import can run (what the entry loads with boot): listing them in each entry of the table
      // that boot.tsx carries only made every page's first load bigger. The entry's own import of
      // boot keeps them, so they are fetched side by side.
      resolveDependencies: (_file, deps, { hostId, hostType }) =>
        hostType === 'js' && !/assets\/index-/.test(hostId)
          ? deps.filter((dep) => !/assets\/(vendor|app|boot|rolldown-runtime|preload-helper)-/.test(dep))
          : deps,
    },
    rollupOptions: {
      output: {
        // One chunk for what every page needs: the framework (React, the router, TanStack Query,
        // zustand) and the app's own shared helpers (the API client, money, the content pages'
        // data helpers). Fewer, larger chunks compress better than many small shared ones, which
        // keeps the first load of / within its budget; every page loads all of it anyway.
        codeSplitting: {
          groups: [
            // Vite's preload helper alone: the first script (main.tsx) needs only it, so the page is
            // painted before the framework is even fetched (docs/decisions/024).
            { name: 'preload-helper', test: /vite[\\/]preload-helper/, priority: 3 },
            // What boot.tsx loads for every page besides the framework (the layout's helpers and
            // stores, the page loader, the first controls): one file instead of seventeen small ones
            // shared with the pages' own chunks (fewer requests, each with its headers, and better
            // compression). A module missing here only gets its own small file again.
            {
              name: 'app',
              priority: 1,
              test: /(apps[\\/]web[\\/]src[\\/](lib[\\/](query-client|cookies|form|unsaved-input|reload-guard|lazy-page|local-storage)|features[\\/]auth[\\/](api[\\/]get-current-user|stores[\\/](user|reset-password)-store)|features[\\/]cart[\\/]api[\\/]cart-api|features[\\/]catalog[\\/]api[\\/]product-api|config[\\/](paths|motion)|components[\\/](brand-mark|ui[\\/](skeleton|page|toast|spinner|button)|errors[\\/]route-error))|packages[\\/]shared[\\/]src[\\/](limits|session|routes|brand|auth-errors|catalog-constants))\.tsx?$/,
            },
            // A product card with its heart and price: the front page shows cards, and these small
            // parts are also used by the 收藏 list and the heart's own chunk, which would otherwise
            // split them into files of their own on the front page's first load.
            {
              name: 'product-card',
              priority: 1,
              test: /apps[\\/]web[\\/]src[\\/]features[\\/]catalog[\\/]components[\\/](product-card|heart-icon|price)\.tsx$/,
            },
            // The footer's facts with the marks they name: one file, fetched when the footer is seen.
            {
              name: 'footer-facts',
              priority: 1,
              test: /(components[\\/]layouts[\\/]footer-facts|lib[\\/]storefront-query|shared[\\/]src[\\/]storefront-marks)\.tsx?$/,
            },
            {
              name: 'vendor',
              priority: 2,
              test: /(node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack|zustand)[\\/]|(src[\\/]lib[\\/]api-(client|error)|src[\\/]components[\\/]ui[\\/](cn|badge)|shared[\\/]src[\\/](money|content-preview)|src[\\/]features[\\/]content[\\/](api[\\/]content-api|components[\\/](format|preview-banner)|hooks[\\/]use-preview-mode))\.tsx?$)/,
            },
          ],
        },
      },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrBuild : browserBuild));
