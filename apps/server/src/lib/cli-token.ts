import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The secret that lets commands on this machine (`npm run order:advance`) call the staff API of
 * the running server. Kept in DATA_DIR with owner-only permissions; a new one at every start.
 */
export function cliTokenFile(dataDir: string): string {
  return path.join(dataDir, 'admin-cli.token');
}

export function writeCliToken(dataDir: string): string {
  const token = randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(cliTokenFile(dataDir), `${token}\n`, { mode: 0o600 });
  return token;
}
