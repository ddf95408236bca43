/** The file the build writes beside index.html and the client polls (spec §4, §7). */
export const BUILD_MANIFEST_PATH = '/build-manifest.json';
