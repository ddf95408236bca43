import fs from 'node:fs';
import { STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import { isEmailAddress } from '@shop/shared/validation/rules';
import { ConfigError, loadConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { cliTokenFile } from '../lib/cli-token.ts';
import { inviteStaff, type StaffInvite } from '../modules/auth/staff-service.ts';

/**
 * npm run admin:create -- <email> [owner|staff|viewer]
 * Invites the address to the console (the first owner, usually) and prints the one-time link; the
 * role is granted only when the link is accepted, which sets the password and ends every earlier
 * session of the account. Goes through the running server when there is one (the embedded database
 * belongs to it, and it also mails the invite); otherwise opens the database itself.
 */
async function main(): Promise<number> {
  const [email, roleArg = 'owner'] = process.argv.slice(2);
  if (!email || !isEmailAddress(email) || !STAFF_ROLES.includes(roleArg as StaffRole)) {
    console.error('usage: npm run admin:create -- <email> [owner|staff|viewer]');
    return 2;
  }
  const role = roleArg as StaffRole;
  const config = loadConfig(process.env);
  const served = await viaServer(config.dataDir, config.port, email, role);
  const invite = served ?? (await direct(config, email, role));
  console.log(
    `Invited ${invite.email}${invite.created ? ' (a new account)' : ''} as ${invite.role}${served ? '; the invitation was mailed there' : ''}.`,
  );
  console.log(
    `The role is granted when this link is opened and a password is set (one time, until ${invite.expiresAt}):`,
  );
  console.log(`  ${invite.setPasswordUrl}`);
  return 0;
}

type CliInvite = Pick<StaffInvite, 'email' | 'role' | 'created' | 'setPasswordUrl' | 'expiresAt'>;

async function viaServer(
  dataDir: string,
  port: number,
  email: string,
  role: StaffRole,
): Promise<CliInvite | null> {
  let token: string;
  try {
    token = fs.readFileSync(cliTokenFile(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  const res = await fetch(`http://127.0.0.1:${port}/api/admin/staff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-cli-token': token },
    body: JSON.stringify({ email, role }),
  }).catch(() => null);
  if (!res) return null;
  const json = (await res.json()) as Omit<CliInvite, 'setPasswordUrl'> & {
    setPasswordUrl: string | null;
    error?: { message: string };
  };
  if (!res.ok || !json.setPasswordUrl)
    throw new Error(`The server refused: ${json.error?.message ?? res.status}`);
  return { ...json, setPasswordUrl: json.setPasswordUrl };
}

async function direct(
  config: ReturnType<typeof loadConfig>,
  email: string,
  role: StaffRole,
): Promise<CliInvite> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateDatabase(database);
    return await database.db.transaction((tx) => inviteStaff(tx, config.publicUrl, { email, role }));
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError)
      error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
