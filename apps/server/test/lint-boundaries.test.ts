import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The server's layering rules (eslint/server-boundaries.js) through ESLint's own API with the
 * repository's config: each rule refuses a deliberately wrong import and lets the right one pass.
 * The files are virtual (lintText with a path), so nothing is written.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, {
    filePath: path.join(ROOT, 'apps/server/src', file),
  });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'server-boundaries/layers')
    .map((m) => m.message);
}

const cases: Array<{ rule: string; file: string; wrong: string; right: string }> = [
  {
    rule: 'routes never import a repository, not even their own',
    file: 'modules/redirects/admin-routes.ts',
    wrong: "import { findRow as x } from './repo.ts';",
    right: "import { listRedirects as x } from './admin-service.ts';",
  },
  {
    rule: "a module's index.ts (its routes) never imports a repository",
    file: 'modules/contact/index.ts',
    wrong: "import { insertMessage as x } from './repo.ts';",
    right: "import { storeMessage as x } from './service.ts';",
  },
  {
    rule: "a module never imports another module's repository",
    file: 'modules/orders/service.ts',
    wrong: "import { releaseRedemptions as x } from '../membership/repo.ts';",
    right: "import { releaseRedemptions as x } from '../membership/service.ts';",
  },
  {
    rule: 'nor from a nested file, whatever the depth',
    file: 'modules/payments/sandbox/index.ts',
    wrong: "import { findOrder as x } from '../../orders/repo.ts';",
    right: "import { recordPaid as x } from '../../orders/service.ts';",
  },
  {
    rule: 'a repository imports no service',
    file: 'modules/membership/repo.ts',
    wrong: "import { membership as x } from './service.ts';",
    right: "import { rows as x } from '../../db/rows.ts';",
  },
  {
    rule: 'a repository imports no routes',
    file: 'modules/dashboard/repo.ts',
    wrong: "import x from './routes.ts';",
    right: "import { containsPattern as x } from '../../db/like.ts';",
  },
  {
    rule: 'plugins import no module',
    file: 'plugins/jobs.ts',
    wrong: "import { issueBirthdayCoupons as x } from '../modules/membership/service.ts';",
    right: "import { rows as x } from '../db/rows.ts';",
  },
  {
    rule: 'plugins import no module, not even a type',
    file: 'plugins/spa.ts',
    wrong: "import type { PageMeta as x } from '../modules/seo/meta.ts';",
    right: "import type { DbOrTx as x } from '../db/client.ts';",
  },
  {
    rule: 'db/ imports no module',
    file: 'db/migrate.ts',
    wrong: "import { localStore as x } from '../modules/storage/backends.ts';",
    right: "import { rows as x } from './rows.ts';",
  },
  {
    rule: 'db/ imports no demo data',
    file: 'db/migrate.ts',
    wrong: "import { isDatabaseEmpty as x } from '../seed/empty.ts';",
    right: "import { rows as x } from './rows.ts';",
  },
  {
    rule: 'demo data goes through services, never a repository',
    file: 'seed/content.ts',
    wrong: "import { upsert as x } from '../modules/content/repo.ts';",
    right: "import { storeDocument as x } from '../modules/content/service.ts';",
  },
];

describe('server layering rules (eslint/server-boundaries.js)', () => {
  it.each(cases)('$rule', async ({ file, wrong, right }) => {
    const refused = await layerErrors(file, wrong);
    expect(refused, wrong).toHaveLength(1);
    expect(await layerErrors(file, right), right).toEqual([]);
  });

  it("lets a module use its own repository from a service, and another module's service", async () => {
    expect(
      await layerErrors(
        'modules/membership/admin-service.ts',
        "import * as x from './repo.ts';\nimport { revokeUserSessions } from '../auth/session-service.ts';\nvoid revokeUserSessions;",
      ),
    ).toEqual([]);
  });

  it('leaves test files free to set data up through repositories', async () => {
    expect(
      await layerErrors('modules/content/admin.test.ts', "import { upsert as x } from './repo.ts';"),
    ).toEqual([]);
  });

  it('says what to do instead', async () => {
    const [message] = await layerErrors(
      'modules/orders/service.ts',
      "import { cartRows as x } from '../cart/repo.ts';",
    );
    expect(message).toBe(
      "A module calls another module's service, never its repository (modules/cart/repo.ts); add a service function there.",
    );
  });
});
