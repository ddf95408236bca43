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

/**
 * How a command reaches the running shop of this DATA_DIR and PORT: its address and the token it
 * wrote; null, having said so on stderr, when no shop has written one.
 */
export function runningShop(config: {
  readonly dataDir: string;
  readonly port: number;
}): { base: string; token: string } | null {
  try {
    return {
      base: `http://127.0.0.1:${config.port}`,
      token: fs.readFileSync(cliTokenFile(config.dataDir), 'utf8').trim(),
    };
  } catch {
    console.error(`No running server found for DATA_DIR=${config.dataDir} (start it with npm start first).`);
    return null;
  }
}
