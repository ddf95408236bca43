import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { EXCEPTIONS } from '../../../eslint/server-boundaries.js';

/**
 * The server's import rules (eslint/server-boundaries.js, eslint/import-cycles.js) through ESLint's
 * own API with the repository's config: each rule refuses a deliberately wrong import and lets the
 * right one pass, and the tree as it is passes them all. The snippets are virtual files (lintText
 * with a path), so nothing is written.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function ruleErrors(rule: string, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, {
    filePath: path.join(ROOT, 'apps/server/src', file),
  });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule || m.fatal).map((m) => m.message);
}

const layerErrors = (file: string, code: string) => ruleErrors('server-boundaries/layers', file, code);

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
    file: 'modules/orders/checkout.ts',
    wrong: "import { releaseRedemptions as x } from '../membership/repo.ts';",
    right: "import { releaseRedemptions as x } from '../membership/service.ts';",
  },
  {
    rule: 'nor from a nested file, whatever the depth',
    file: 'modules/payments/sandbox/index.ts',
    wrong: "import { findOrder as x } from '../../orders/repo.ts';",
    right: "import { recordPaid as x } from '../../orders/payment-results.ts';",
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
    rule: 'no domain imports the console',
    file: 'modules/orders/admin-routes.ts',
    wrong: "import x from '../admin/index.ts';",
    right: "import { recordAudit as x } from '../../plugins/audit.ts';",
  },
  {
    rule: 'nor does the command line or the demo data',
    file: 'cli/admin-create.ts',
    wrong: "import x from '../modules/admin/index.ts';",
    right: "import { inviteStaff as x } from '../modules/auth/staff-service.ts';",
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

  it('lets app.ts, and only app.ts, register the console', async () => {
    expect(await layerErrors('app.ts', "import x from './modules/admin/index.ts';")).toEqual([]);
    expect(await layerErrors('server.ts', "import x from './modules/admin/index.ts';")).toHaveLength(1);
  });

  it('leaves test files free to set data up through repositories', async () => {
    expect(
      await layerErrors('modules/content/admin.test.ts', "import { upsert as x } from './repo.ts';"),
    ).toEqual([]);
  });

  it('says what to do instead', async () => {
    const [message] = await layerErrors(
      'modules/orders/checkout.ts',
      "import { cartRows as x } from '../cart/repo.ts';",
    );
    expect(message).toBe(
      "A module calls another module's service, never its repository (modules/cart/repo.ts); add a service function there.",
    );
  });
});

const fastifyErrors = (file: string, code: string) => ruleErrors('server-boundaries/no-fastify', file, code);

describe('services and repositories import no fastify (server-boundaries/no-fastify)', () => {
  it.each([
    [
      'a service, even for a type',
      'modules/membership/admin-service.ts',
      "import type { FastifyRequest as x } from 'fastify';",
    ],
    ['a repository', 'modules/membership/repo.ts', "import x from 'fastify-plugin';"],
    [
      'a nested service, from a scoped package',
      'modules/payments/ecpay/card-action.ts',
      "import x from '@fastify/cookie';",
    ],
  ])('refuses it in %s', async (_what, file, code) => {
    expect(await fastifyErrors(file, code)).toEqual([
      expect.stringMatching(/^Services and repositories import no fastify/),
    ]);
  });

  it.each([
    ['routes', 'modules/membership/admin-routes.ts'],
    ["a module's index.ts", 'modules/membership/index.ts'],
    ['a Fastify plugin a module exports', 'modules/auth/session-plugin.ts'],
    ["a module's HTTP helpers", 'modules/auth/http.ts'],
    ['plugins/', 'plugins/audit.ts'],
  ])('allows it in %s', async (_what, file) => {
    expect(await fastifyErrors(file, "import type { FastifyRequest as x } from 'fastify';")).toEqual([]);
  });

  it('takes plain values instead', async () => {
    expect(
      await fastifyErrors(
        'modules/membership/admin-service.ts',
        "import type { StaffActor as x } from '../../plugins/staff-guard.ts';",
      ),
    ).toEqual([]);
  });
});

const sqlErrors = (file: string, code: string) => ruleErrors('server-boundaries/sql-in-repos', file, code);

describe('SQL only in repositories (server-boundaries/sql-in-repos)', () => {
  it.each([
    ['a service', 'modules/membership/profile.ts', "import { sql as x } from 'drizzle-orm';"],
    ['routes', 'modules/seo/index.ts', "import { eq as x } from 'drizzle-orm';"],
    [
      "the schema's tables",
      'modules/membership/profile.ts',
      "import { users as x } from '../../db/schema.ts';",
    ],
    [
      'a subpath of drizzle-orm',
      'modules/catalog/service.ts',
      "import { alias as x } from 'drizzle-orm/pg-core';",
    ],
  ])('refuses a query builder in %s', async (_what, file, code) => {
    expect(await sqlErrors(file, code)).toEqual([expect.stringMatching(/^SQL belongs in a repository/)]);
  });

  it.each([
    ['repo.ts', 'modules/membership/repo.ts'],
    ['a *-repo.ts', 'modules/catalog/stock-repo.ts'],
  ])('allows it in %s', async (_what, file) => {
    expect(await sqlErrors(file, "import { sql as x } from 'drizzle-orm';")).toEqual([]);
  });

  it('allows types anywhere: they carry no query', async () => {
    const file = 'modules/catalog/stock.ts';
    expect(await sqlErrors(file, "import type { SQL as x } from 'drizzle-orm';")).toEqual([]);
    expect(await sqlErrors(file, "import { type InvoiceDetails as x } from '../../db/schema.ts';")).toEqual(
      [],
    );
  });
});

describe('the exceptions', () => {
  it('each names its files and says why', () => {
    for (const [rule, entries] of Object.entries(EXCEPTIONS))
      for (const entry of entries) {
        expect(entry.files.length, rule).toBeGreaterThan(0);
        expect(entry.reason.length, `${rule}: ${entry.files.join(', ')}`).toBeGreaterThan(40);
      }
  });

  it('cover the files they name and no neighbour', async () => {
    const code = "import { eq as x } from 'drizzle-orm';";
    expect(await sqlErrors('modules/payments/sandbox/index.ts', code)).toEqual([]);
    expect(await sqlErrors('modules/payments/gateway.ts', code)).toHaveLength(1);
    expect(
      await fastifyErrors('modules/orders/deps.ts', "import type { FastifyInstance as x } from 'fastify';"),
    ).toEqual([]);
    expect(
      await fastifyErrors('modules/orders/notify.ts', "import type { FastifyInstance as x } from 'fastify';"),
    ).toHaveLength(1);
  });
});

const cycleErrors = (file: string, code: string) => ruleErrors('import-x/no-cycle', file, code);

describe('no import cycles (import-x/no-cycle)', () => {
  it('refuses an import that comes back to the file', async () => {
    // cart/service.ts imports catalog/service.ts: importing it back from there closes a cycle.
    expect(
      await cycleErrors('modules/catalog/service.ts', "import * as x from '../cart/service.ts';"),
    ).toEqual([expect.stringMatching(/^Dependency cycle/)]);
    expect(
      await cycleErrors('modules/catalog/service.ts', "import * as x from '../redirects/service.ts';"),
    ).toEqual([]);
  });

  it('follows a cycle through several files', async () => {
    // content/service.ts → catalog/service.ts → redirects/service.ts: closing it from redirects is refused.
    expect(
      await cycleErrors('modules/redirects/service.ts', "import * as x from '../content/service.ts';"),
    ).toEqual([expect.stringMatching(/^Dependency cycle via/)]);
  });

  it('does not count a type-only import: it is gone once compiled', async () => {
    expect(
      await cycleErrors('modules/catalog/service.ts', "import type * as x from '../cart/service.ts';"),
    ).toEqual([]);
  });
});

describe('the tree passes every import rule', () => {
  it('has no error from them under apps/server/src', { timeout: 300_000 }, async () => {
    const rules = new Set([
      'server-boundaries/layers',
      'server-boundaries/no-fastify',
      'server-boundaries/sql-in-repos',
      'import-x/no-cycle',
    ]);
    const tree = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => rules.has(ruleId) });
    const results = await tree.lintFiles(['apps/server/src']);
    const errors = results.flatMap((r) =>
      r.messages.map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`),
    );
    expect(results.length).toBeGreaterThan(200);
    expect(errors).toEqual([]);
  });
});
