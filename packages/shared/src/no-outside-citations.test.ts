/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Comments, test titles and docs point to docs/product-rules.md, docs/decisions/*.md or code,
 * never to a specification document that is not in the repository (a reader could not follow it).
 * This test fails on any such citation so it cannot come back.
 */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A section sign with a number (alone or after "spec"), a numbered clarification, or the
 * specification's list, table or section. Written with \u00a7 so this file does not match itself.
 */
const CITATION = /spec \u00a7|\u00a7[0-9]|[Cc]larification [0-9]|[Ss]pec'?s? (section|list|table)/;

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'test-results', 'playwright-report']);
const EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|md)$/;

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name), out);
    } else if (entry.isFile() && EXTENSIONS.test(entry.name)) {
      out.push(join(dir, entry.name));
    }
  }
}

/** apps/<app>/{src,test}, packages/<pkg>/src, e2e, scripts, docs, README.md and each app's config files. */
function scannedFiles(): string[] {
  const files: string[] = [];
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(REPO, group))) {
      const root = join(REPO, group, name);
      if (!isDir(root)) continue;
      for (const sub of group === 'apps' ? ['src', 'test'] : ['src']) {
        if (isDir(join(root, sub))) walk(join(root, sub), files);
      }
      for (const file of readdirSync(root)) {
        if (EXTENSIONS.test(file) && !isDir(join(root, file))) files.push(join(root, file));
      }
    }
  }
  for (const dir of ['e2e', 'scripts', 'docs']) {
    if (isDir(join(REPO, dir))) walk(join(REPO, dir), files);
  }
  files.push(join(REPO, 'README.md'));
  return files;
}

describe('no citations of an outside specification', () => {
  it('scans the source, tests, scripts and docs', () => {
    const files = scannedFiles().map((f) => relative(REPO, f));
    expect(files).toContain('README.md');
    expect(files).toContain('docs/product-rules.md');
    expect(files).toContain('packages/shared/src/routes.ts');
    expect(files.some((f) => f.startsWith('apps/web/src/'))).toBe(true);
    expect(files.some((f) => f.startsWith('apps/server/src/'))).toBe(true);
  });

  it('finds none: rules are cited as docs/product-rules.md#…, a decision record or code', () => {
    const hits: string[] = [];
    for (const file of scannedFiles()) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (CITATION.test(line)) hits.push(`${relative(REPO, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
