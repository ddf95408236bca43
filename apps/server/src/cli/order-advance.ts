import fs from 'node:fs';
import { loadConfig } from '../config/env.ts';
import { cliTokenFile } from '../lib/cli-token.ts';

/**
 * npm run order:advance -- <orderNo> <status|shipment event> [location]
 * Moves an order along through the running server's staff API (so open tracking pages update).
 *   statuses: processing shipped delivered completed cancelled refunded
 *   shipment events: picked_up in_transit arrived_at_store delivered
 */
const STATUSES = ['processing', 'shipped', 'delivered', 'completed', 'cancelled', 'refunded'];
const EVENTS = ['picked_up', 'in_transit', 'arrived_at_store'];

async function main(): Promise<number> {
  const [orderNo, step, ...rest] = process.argv.slice(2);
  if (!orderNo || !step || (!STATUSES.includes(step) && !EVENTS.includes(step))) {
    console.error(`usage: npm run order:advance -- <orderNo> <${[...STATUSES, ...EVENTS].join('|')}> [location]`);
    return 2;
  }
  const config = loadConfig(process.env);
  let token: string;
  try {
    token = fs.readFileSync(cliTokenFile(config.dataDir), 'utf8').trim();
  } catch {
    console.error(`No running server found for DATA_DIR=${config.dataDir} (start it with npm start first).`);
    return 1;
  }
  const base = `http://127.0.0.1:${config.port}`;
  const location = rest.join(' ') || undefined;
  const body = STATUSES.includes(step)
    ? { status: step, ...(step === 'shipped' ? { carrier: '黑貓宅急便', trackingNo: `9${Date.now().toString().slice(-11)}` } : {}), ...(location ? { location } : {}) }
    : { shipmentEvent: step, ...(location ? { location } : {}) };
  const res = await fetch(`${base}/api/admin/orders/${encodeURIComponent(orderNo)}/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-cli-token': token },
    body: JSON.stringify(body),
  }).catch(() => null);
  if (!res) {
    console.error(`The server at ${base} did not answer. Is it running (npm start)?`);
    return 1;
  }
  const json = (await res.json()) as { status?: string; error?: { message: string } };
  if (!res.ok) {
    console.error(`Refused: ${json.error?.message ?? res.status}`);
    return 1;
  }
  console.log(`${orderNo} → ${json.status}`);
  return 0;
}

main().then((code) => process.exit(code));
