import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config/env.ts';
import { runningShop } from '../lib/cli-token.ts';
import type { CommandLineIo } from './order-advance.ts';

/**
 * npm run outbox:release
 * Lets a restored shop send again (plugins/outbox.ts, the hold a restore puts on the outbox):
 * through the running server's staff API with the command-line token, audited as "command-line".
 * Run it once the shop the backup came from no longer sends, or everything it had pending goes
 * out twice.
 */
export async function runOutboxRelease(io: CommandLineIo): Promise<number> {
  const res = await fetch(`${io.base}/api/admin/outbox/release`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-cli-token': io.token },
    body: '{}',
  }).catch(() => null);
  if (!res) {
    io.error(`The server at ${io.base} did not answer. Start the shop (npm start), then release its outbox.`);
    return 1;
  }
  const json = (await res.json()) as { pending?: number; error?: { code?: string; message: string } };
  if (json.error?.code === 'not-held') {
    io.error('The outbox is not held: it already sends.');
    return 1;
  }
  if (!res.ok) {
    io.error(`Refused: ${json.error?.message ?? res.status}`);
    return 1;
  }
  io.log(`Outbox released: ${json.pending ?? 0} waiting messages are sent now.`);
  return 0;
}

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    console.error('usage: npm run outbox:release');
    return 2;
  }
  const shop = runningShop(loadConfig(process.env));
  return shop ? runOutboxRelease({ ...shop, log: console.log, error: console.error }) : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof ConfigError)
        error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
      else console.error(error instanceof Error ? `Release failed: ${error.message}` : error);
      process.exit(1);
    },
  );
}
