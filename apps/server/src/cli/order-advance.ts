import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config/env.ts';
import { runningShop } from '../lib/cli-token.ts';

/**
 * npm run order:advance -- <orderNo> <status|shipment event> [location]
 * Moves an order along through the running server's staff API (so open tracking pages update),
 * which takes it through the orders module's one door: what the console refuses, this refuses too.
 *   statuses: processing shipped delivered completed cancelled refunded
 *   shipment events: picked_up in_transit arrived_at_store delivered
 */
const STATUSES = ['processing', 'shipped', 'delivered', 'completed', 'cancelled', 'refunded'];
const EVENTS = ['picked_up', 'in_transit', 'arrived_at_store'];

export interface CommandLineIo {
  /** The running server, e.g. http://127.0.0.1:3000. */
  readonly base: string;
  readonly token: string;
  readonly log: (line: string) => void;
  readonly error: (line: string) => void;
}

const USAGE = `usage: npm run order:advance -- <orderNo> <${[...STATUSES, ...EVENTS].join('|')}> [location]`;
const validArgs = ([orderNo, step]: readonly string[]) =>
  Boolean(orderNo && step && (STATUSES.includes(step) || EVENTS.includes(step)));

/** Runs the command with its arguments against a server; returns the exit code. */
export async function runOrderAdvance(args: readonly string[], io: CommandLineIo): Promise<number> {
  const [orderNo = '', step = '', ...rest] = args;
  if (!validArgs(args)) {
    io.error(USAGE);
    return 2;
  }
  const location = rest.join(' ') || undefined;
  const body = STATUSES.includes(step)
    ? {
        status: step,
        ...(step === 'shipped'
          ? { carrier: '黑貓宅急便', trackingNo: `9${Date.now().toString().slice(-11)}` }
          : {}),
        ...(location ? { location } : {}),
      }
    : { shipmentEvent: step, ...(location ? { location } : {}) };
  const res = await fetch(`${io.base}/api/admin/orders/${encodeURIComponent(orderNo)}/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-cli-token': io.token },
    body: JSON.stringify(body),
  }).catch(() => null);
  if (!res) {
    io.error(`The server at ${io.base} did not answer. Is it running (npm start)?`);
    return 1;
  }
  const json = (await res.json()) as { status?: string; error?: { code?: string; message: string } };
  if (!res.ok) {
    io.error(`Refused: ${json.error?.message ?? res.status}`);
    return 1;
  }
  io.log(`${orderNo} → ${json.status}`);
  return 0;
}

async function main(): Promise<number> {
  if (!validArgs(process.argv.slice(2))) {
    console.error(USAGE);
    return 2;
  }
  const shop = runningShop(loadConfig(process.env));
  return shop
    ? runOrderAdvance(process.argv.slice(2), { ...shop, log: console.log, error: console.error })
    : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  void main().then((code) => process.exit(code));
