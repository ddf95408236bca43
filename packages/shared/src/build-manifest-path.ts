/** The file the build writes beside index.html and the client polls (docs/product-rules.md#http-behaviour, new builds). */
export const BUILD_MANIFEST_PATH = '/build-manifest.json';
