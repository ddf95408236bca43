// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The web layering rules (eslint/web-boundaries.js) run through the repository's own ESLint config,
 * on virtual files: a wrong import is an error, the right one passes.
 */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}apps/web/src/${filePath}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'web-boundaries/layers' || m.ruleId === 'no-restricted-imports' || m.fatal)
    .map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const use = (specifier: string, name = 'x') =>
  `import { ${name} } from '${specifier}';\nexport const y = ${name};\n`;

describe('web boundaries', () => {
  it('a feature does not import another feature, at any depth', async () => {
    expect(
      await boundaryErrors('features/cart/components/cart-line.tsx', use('../../catalog/api/catalog-api.ts')),
    ).toEqual([
      expect.stringMatching(
        /^web-boundaries\/layers: A feature never imports another feature \(features\/catalog\/api\/catalog-api.ts\)/,
      ),
    ]);
    expect(
      await boundaryErrors('features/cart/cart-util.ts', use('../auth/stores/user-store.ts')),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'features/cart/cart-util.ts',
        `export const load = () => import('../orders/api/orders-api.ts');\n`,
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'features/cart/cart-util.ts',
        `export { x } from '../orders/api/orders-api.ts';\n`,
      ),
    ).toHaveLength(1);
  });

  it('a feature imports its own files, shared code and @shop/shared', async () => {
    const code = [
      `import { a } from '../api/cart-api.ts';`,
      `import { b } from '../../../components/ui/button.tsx';`,
      `import { c } from '../../../lib/form.ts';`,
      `import { d } from '../../../hooks/use-debounced-value.ts';`,
      `import { e } from '../../../config/paths.ts';`,
      `import { f } from '@shop/shared/cart';`,
      `export const all = [a, b, c, d, e, f];`,
    ].join('\n');
    expect(await boundaryErrors('features/cart/components/cart-line.tsx', code)).toEqual([]);
  });

  it('a feature does not import app/', async () => {
    const errors = await boundaryErrors(
      'features/checkout/components/form.tsx',
      use('../../../app/guards.ts'),
    );
    expect(errors.some((e) => e.startsWith('web-boundaries/layers: A feature never imports app/'))).toBe(
      true,
    );
  });

  it('shared code does not import a feature or app/', async () => {
    expect(
      await boundaryErrors(
        'components/layouts/site-header.tsx',
        use('../../features/auth/stores/user-store.ts'),
      ),
    ).toEqual([expect.stringMatching(/^web-boundaries\/layers: Shared code .* never imports a feature/)]);
    expect(await boundaryErrors('lib/form.ts', use('../features/cart/api/cart-api.ts'))).toHaveLength(1);
    expect(await boundaryErrors('hooks/use-x.ts', use('../features/cart/api/cart-api.ts'))).toHaveLength(1);
    expect(await boundaryErrors('config/paths.ts', use('../features/cart/api/cart-api.ts'))).toHaveLength(1);
    const toApp = await boundaryErrors('lib/form.ts', use('../app/guards.ts'));
    expect(
      toApp.some((e) =>
        e.startsWith(
          'web-boundaries/layers: Shared code (components/, lib/, hooks/, config/) never imports app/',
        ),
      ),
    ).toBe(true);
  });

  it('shared code imports shared code', async () => {
    expect(
      await boundaryErrors(
        'components/layouts/site-header.tsx',
        use('../../lib/form.ts') + use('../ui/cn.ts', 'cn'),
      ),
    ).toEqual([]);
  });

  it('the shop does not import the console', async () => {
    expect(
      await boundaryErrors('app/routes/cart.tsx', use('../../admin/components/order-parts.tsx')),
    ).toEqual([expect.stringMatching(/^web-boundaries\/layers: The shop never imports the console/)]);
    expect(
      await boundaryErrors(
        'features/orders/components/order-parts.tsx',
        use('../../../admin/components/x.tsx'),
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('components/ui/button.tsx', use('../../admin/components/x.tsx')),
    ).toHaveLength(1);
    // Only the router's lazy import of the console's entry crosses.
    expect(
      await boundaryErrors('app/router.tsx', `export const load = () => import('../admin/admin-app.tsx');\n`),
    ).toEqual([]);
    expect(await boundaryErrors('app/router.tsx', use('../admin/admin-app.tsx'))).toHaveLength(1);
  });

  it('app/ composes features and shared code', async () => {
    const code =
      use('../../features/cart/api/cart-api.ts') +
      use('../../features/catalog/api/catalog-api.ts', 'z') +
      use('../../components/ui/page.tsx', 'w');
    expect(await boundaryErrors('app/routes/cart.tsx', code)).toEqual([]);
  });

  it('nothing outside app/ and main.tsx imports app/', async () => {
    const errors = await boundaryErrors('admin/pages/orders.tsx', use('../../app/guards.ts'));
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*Only app\/ composes features/)]);
    expect(await boundaryErrors('main.tsx', use('./app/router.tsx'))).toEqual([]);
  });
});

async function cycleErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}apps/web/src/${filePath}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-cycle' || m.fatal)
    .map((m) => m.message);
}

describe('no import cycles (import-x/no-cycle, eslint/import-cycles.js)', () => {
  it('refuses an import that comes back to the file', async () => {
    // cart-line.tsx imports cart-api.ts: importing the component from the api closes a cycle.
    expect(
      await cycleErrors(
        'features/cart/api/cart-api.ts',
        'import * as x from "../components/cart-line.tsx";\nexport const y = x;\n',
      ),
    ).toEqual([expect.stringMatching(/^Dependency cycle/)]);
    expect(
      await cycleErrors(
        'features/cart/api/cart-api.ts',
        'import * as x from "../../../lib/form.ts";\nexport const y = x;\n',
      ),
    ).toEqual([]);
  });

  it('does not count a type-only import: it is gone once compiled', async () => {
    expect(
      await cycleErrors(
        'features/cart/api/cart-api.ts',
        'import type * as x from "../components/cart-line.tsx";\nexport type Y = typeof x;\n',
      ),
    ).toEqual([]);
  });

  it('the tree has none under apps/web/src', { timeout: 300_000 }, async () => {
    const tree = new ESLint({ cwd: repoRoot, ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-cycle' });
    const results = await tree.lintFiles(['apps/web/src']);
    const errors = results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(results.length).toBeGreaterThan(200);
    expect(errors).toEqual([]);
  });
});
