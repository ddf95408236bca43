import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config/env.ts';
import { dbEngine } from './helpers.ts';

type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text.trim());
  if (!m) return null;
  const part = (s: string | undefined) =>
    s === undefined || s === 'x' || s === '*' ? Number.NaN : Number(s);
  return [Number(m[1]), part(m[2]), part(m[3])];
}

const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `version` is in an npm `engines` range. Enough of node-semver for engines fields: `||`,
 * space-separated comparators, `>= > <= < =`, `^`, `~`, x-ranges and `a - b`. Anything else throws,
 * so an unread range fails the test rather than passing it.
 */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) => {
    const text = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1');
    if (text === '' || text === '*' || text === 'x') return true;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen) return satisfies(version, `>=${hyphen[1]} <=${hyphen[2]}`);
    return text.split(/\s+/).every((comparator) => {
      const m = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(comparator);
      const bound = m && parseVersion(m[2]!);
      if (!m || !bound) throw new Error(`cannot read the engines range "${range}"`);
      const [major, minor, patch] = bound;
      const low: Version = [major, Number.isNaN(minor) ? 0 : minor, Number.isNaN(patch) ? 0 : patch];
      const op = m[1] ?? (Number.isNaN(minor) || Number.isNaN(patch) ? 'x' : '=');
      switch (op) {
        case '>=':
          return cmp(version, low) >= 0;
        case '>':
          return Number.isNaN(minor)
            ? version[0] > major
            : Number.isNaN(patch)
              ? cmp(version, [major, minor, Infinity]) > 0
              : cmp(version, low) > 0;
        case '<=':
          return Number.isNaN(minor)
            ? version[0] <= major
            : Number.isNaN(patch)
              ? cmp(version, [major, minor, Infinity]) <= 0
              : cmp(version, low) <= 0;
        case '<':
          return cmp(version, low) < 0;
        case '=':
          return cmp(version, low) === 0;
        case 'x':
          return version[0] === major && (Number.isNaN(minor) || version[1] === minor);
        case '^':
          return (
            cmp(version, low) >= 0 &&
            (major > 0 ? version[0] === major : version[0] === 0 && version[1] === low[1])
          );
        case '~':
          return (
            cmp(version, low) >= 0 && version[0] === major && (Number.isNaN(minor) || version[1] === minor)
          );
        default:
          throw new Error(`cannot read the engines range "${range}"`);
      }
    });
  });
}

/** Every installed package (hoisted or nested) that states a Node range. */
function installedEngines(): Array<{ name: string; range: string }> {
  const out: Array<{ name: string; range: string }> = [];
  const visit = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@')
        ? fs.readdirSync(path.join(modules, entry)).map((d) => path.join(modules, entry, d))
        : [path.join(modules, entry)];
      for (const dir of dirs) {
        const file = path.join(dir, 'package.json');
        if (!fs.existsSync(file)) continue;
        const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as {
          name?: string;
          engines?: { node?: unknown };
        };
        if (typeof pkg.engines?.node === 'string')
          out.push({ name: pkg.name ?? dir, range: pkg.engines.node });
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  for (const root of [
    REPO_ROOT,
    ...['apps/server', 'apps/web', 'packages/shared'].map((w) => path.join(REPO_ROOT, w)),
  ])
    visit(path.join(root, 'node_modules'));
  return out;
}

// Node releases around the ranges in use: every one the project admits must suit every package.
const CANDIDATES = [
  '20.19.0',
  '20.20.2',
  '22.12.0',
  '22.13.0',
  '22.21.0',
  '22.22.0',
  '22.30.0',
  '23.11.0',
  '24.0.0',
  '24.21.0',
  '25.2.0',
  '26.0.0',
  '26.10.0',
];

describe.skipIf(dbEngine() !== 'pglite')('Node versions', () => {
  const root = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
    config?: { ltsNode?: string };
  };

  it('package.json engines admits only Node versions every installed package accepts', () => {
    const packages = installedEngines();
    expect(packages.length).toBeGreaterThan(50);
    const refused: string[] = [];
    for (const candidate of CANDIDATES) {
      const version = parseVersion(candidate)!;
      if (!satisfies(version, root.engines.node)) continue;
      for (const pkg of packages)
        if (!satisfies(version, pkg.range))
          refused.push(`${pkg.name} wants "${pkg.range}", not Node ${candidate}`);
    }
    expect(refused).toEqual([]);
  });

  it('the Node LTS that CI runs the suite on (package.json config.ltsNode) is one the engines admit', () => {
    const lts = parseVersion(root.config?.ltsNode ?? '');
    expect(lts, 'config.ltsNode names an exact version').not.toBeNull();
    expect(lts![0] % 2, 'an even major: an LTS line').toBe(0);
    expect(satisfies(lts!, root.engines.node)).toBe(true);
    // The range reader itself, on the forms the dependencies use.
    expect(satisfies(parseVersion('24.0.0')!, '^22.22.0 || ^24.0.0')).toBe(true);
    expect(satisfies(parseVersion('25.2.0')!, '^22.12.0 || ^24.0.0 || >=26.0.0')).toBe(false);
  });
});
