import fs from 'node:fs';
import { STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import { ConfigError, loadConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { cliTokenFile } from '../lib/cli-token.ts';
import { inviteStaff, type StaffInvite } from '../modules/admin/staff-service.ts';

/**
 * npm run admin:create -- <email> [owner|staff|viewer]
 * Makes the address a console account (the first owner, usually) and prints a one-time link to set
 * its password. Goes through the running server when there is one (the embedded database belongs
 * to it); otherwise opens the database itself.
 */
async function main(): Promise<number> {
  const [email, roleArg = 'owner'] = process.argv.slice(2);
  if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || !STAFF_ROLES.includes(roleArg as StaffRole)) {
    console.error('usage: npm run admin:create -- <email> [owner|staff|viewer]');
    return 2;
  }
  const role = roleArg as StaffRole;
  const config = loadConfig(process.env);
  const invite = (await viaServer(config.dataDir, config.port, email, role)) ?? (await direct(config, email, role));
  console.log(`${invite.created ? 'Created' : 'Updated'} ${invite.email} as ${invite.role}.`);
  console.log(`Set the password (one time, until ${invite.expiresAt}):`);
  console.log(`  ${invite.setPasswordUrl}`);
  return 0;
}

async function viaServer(dataDir: string, port: number, email: string, role: StaffRole): Promise<StaffInvite | null> {
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
  const json = (await res.json()) as StaffInvite & { error?: { message: string } };
  if (!res.ok) throw new Error(`The server refused: ${json.error?.message ?? res.status}`);
  return json;
}

async function direct(config: ReturnType<typeof loadConfig>, email: string, role: StaffRole): Promise<StaffInvite> {
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
    if (error instanceof ConfigError) error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
