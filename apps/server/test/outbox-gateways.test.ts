import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_COOKIE } from '@shop/shared/session';
import { createPool, postgresDatabase, type Database } from '../src/db/client.ts';
import { productVariants, users } from '../src/db/schema.ts';
import { createSession } from '../src/modules/auth/session-service.ts';
import { EINVOICE_PATHS, EINVOICE_STAGE_MERCHANT } from '../src/modules/invoices/ecpay-invoice-protocol.ts';
import einvoiceSandbox from '../src/modules/invoices/sandbox.ts';
import { dbEinvoices, type SandboxInvoiceStore } from '../src/modules/invoices/sandbox-store.ts';
import cardActionSandbox, {
  authoriseTrade,
  type SandboxTrades,
} from '../src/modules/payments/sandbox/card-action.ts';
import { dbTrades } from '../src/modules/payments/sandbox/index.ts';
import { seedTestCatalog } from './fixtures.ts';
import { createTestDatabaseUrl, dbAvailable, dbEngine } from './helpers.ts';
import { freePort } from './redis-server.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { ecpayNotice } from './shop.ts';

// A killed process must leave its database behind intact and shared with the next one: PostgreSQL.
const onPostgres = dbEngine() === 'postgres';
if (!onPostgres)
  console.warn(
    '[outbox-gateways] needs PostgreSQL (a killed process and its successor share the database); skipped on the embedded database.',
  );

/** The shop's card merchant when none is configured (ECPay's published stage merchant), which the gateway must share. */
const CARD_MERCHANT = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };

/** What the gateway keeps, made anew at each start: only what these keep in the database outlives a restart. */
interface GatewayMemory {
  invoices(): SandboxInvoiceStore;
  trades(): SandboxTrades;
}

/**
 * ECPay as a server of its own: the e-invoice API and the card actions (refunds, the trade query)
 * on one port, served by the sandboxes the shop has built in. It can be stopped (the port then
 * refuses connections) and started again as a new server that knows only what its stores kept;
 * and told to take the next Issue but hold back its answer (the invoice exists, the shop has not
 * heard). Every invoice it ever issued, over all its lives, is counted.
 */
function gateway(port: number, memory: GatewayMemory) {
  let app: FastifyInstance | null = null;
  let life = 0;
  let trades = memory.trades();
  let held: (() => void) | null = null;
  const issued: Array<{ relateNumber: string; invoiceNo: string; life: number }> = [];
  return {
    issued,
    /** The card trades of the gateway's current life. */
    trades: () => trades,
    /** Resolves when an Issue has been carried out and its answer is being held back. */
    holdNextIssue: () => new Promise<void>((resolve) => (held = resolve)),
    async start() {
      life += 1;
      const lifeNo = life;
      const invoices = memory.invoices();
      trades = memory.trades();
      const counted: SandboxInvoiceStore = {
        get: (no) => invoices.get(no),
        getByRelateNumber: (relate) => invoices.getByRelateNumber(relate),
        save: (invoice) => invoices.save(invoice),
        allowanceNoTaken: (no) => invoices.allowanceNoTaken(no),
        async add(invoice) {
          const outcome = await invoices.add(invoice);
          if (outcome === 'added')
            issued.push({ relateNumber: invoice.relateNumber, invoiceNo: invoice.invoiceNo, life: lifeNo });
          return outcome;
        },
      };
      // Closing drops open connections too, the held one included, as a server that stops would.
      const server = Fastify({ forceCloseConnections: true });
      server.addHook('onSend', async (request, _reply, payload) => {
        if (held && request.url === EINVOICE_PATHS.issue) {
          const signal = held;
          held = null;
          signal();
          await new Promise(() => undefined);
        }
        return payload;
      });
      await server.register(einvoiceSandbox, { settings: EINVOICE_STAGE_MERCHANT, store: counted });
      await server.register(cardActionSandbox, { settings: CARD_MERCHANT, trades, settleAfterMs: 0 });
      await server.listen({ port, host: '127.0.0.1' });
      app = server;
    },
    async stop() {
      const server = app;
      app = null;
      await server?.close();
    },
  };
}

describe.skipIf(!dbAvailable() || !onPostgres)(
  'the outbox with the ECPay gateways stopped and restarted, and a worker killed mid-delivery',
  () => {
    let url = '';
    let pool: pg.Pool;
    let database: Database;
    let variant = '';
    let gatewayPort = 0;
    let gw: ReturnType<typeof gateway>;
    const servers: ServerProcess[] = [];
    beforeAll(async () => {
      url = await createTestDatabaseUrl();
      pool = createPool(url, { max: 5 });
      database = postgresDatabase(pool);
      await seedTestCatalog(database);
      variant = (
        await database.db
          .select({ id: productVariants.id })
          .from(productVariants)
          .where(eq(productVariants.sku, 'DD-S'))
      )[0]!.id;
      gatewayPort = await freePort();
      // The gateway keeps its invoices and card trades in the shop's database, as the app's built-in sandboxes do.
      gw = gateway(gatewayPort, {
        invoices: () => dbEinvoices(database.db),
        trades: () => dbTrades(database.db),
      });
    });
    afterAll(async () => {
      for (const s of servers) await s.dispose();
      await gw?.stop();
      await database?.close();
    });

    const q = async <T>(text: string, values: unknown[] = []) => (await pool.query(text, values)).rows as T[];
    type Message = {
      key: string;
      kind: string;
      status: string;
      attempts: number;
      last_error: string | null;
      leased: boolean;
    };
    const messages = () =>
      q<Message>(
        `select key, kind, status, attempts, last_error, lease_until is not null as leased from outbox_messages where kind in ('invoice.issue', 'invoice.void', 'payment.refund') order by id`,
      );
    const until = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
      const end = Date.now() + ms;
      while (!(await ok())) {
        if (Date.now() > end)
          throw new Error(`timed out waiting: ${what}\n${JSON.stringify(await messages(), null, 1)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const start = async () => {
      const port = gatewayPort;
      const server = await startServerProcess({
        DATABASE_URL: url,
        OUTBOX_LEASE_SECONDS: '3',
        ECPAY_EINVOICE_ENDPOINT: `http://127.0.0.1:${port}`,
        // Card actions go to this endpoint's origin.
        ECPAY_ENDPOINT: `http://127.0.0.1:${port}/Cashier/AioCheckOut/V5`,
      });
      servers.push(server);
      return server;
    };
    /** A signed-in member (or staff), by a session written straight into the shared database. */
    const session = async (email: string, role: 'customer' | 'staff' = 'customer') => {
      const [user] = await database.db
        .insert(users)
        .values({ email, displayName: '林小嵐', emailVerifiedAt: new Date(), role })
        .returning({ id: users.id });
      const { token } = await createSession(database.db, user!.id, { userAgent: null, ip: null });
      return `${TOKEN_COOKIE}=${token}`;
    };
    const call = async (
      server: ServerProcess,
      cookie: string,
      method: 'GET' | 'POST',
      path: string,
      body?: unknown,
    ) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          cookie,
          origin: server.url,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    it('every invoice is issued once and every refund made once in the end, none lost', async () => {
      // 1. The gateway is up; six members order a 480 tin (600 with shipping) and pay by card there.
      await gw.start();
      const first = await start();
      const orders: Array<{ orderNo: string; tradeNo: string; gwsr: string }> = [];
      for (let i = 0; i < 6; i += 1) {
        const cookie = await session(`gateway-${i}@example.com`);
        expect(
          (await call(first, cookie, 'POST', '/api/cart/items', { variantId: variant, quantity: 1 })).status,
        ).toBe(200);
        const placed = await call(first, cookie, 'POST', '/api/orders', {
          idempotencyKey: randomUUID(),
          shipping: {
            method: 'home',
            recipientName: '林小嵐',
            phone: '0912345678',
            city: '南投縣',
            district: '鹿谷鄉',
            address: '興產路 87 號',
          },
          invoice: { type: 'member' },
          paymentMethod: 'credit_card',
        });
        expect(placed.status, JSON.stringify(placed.body)).toBe(201);
        const orderNo = (placed.body.order as { orderNo: string }).orderNo;
        const order = { orderNo, tradeNo: `T${orderNo.slice(-12)}`, gwsr: String(20_000_000 + i) };
        await authoriseTrade(gw.trades(), {
          merchantTradeNo: `${orderNo}P1`,
          tradeNo: order.tradeNo,
          gwsr: order.gwsr,
          amount: 600,
        });
        orders.push(order);
      }

      // 2. The gateway stops. The payment notices arrive (each asks for an invoice) and staff refund
      //    two of the orders (each asks for a card refund): all of it waits, failing, with its error.
      await gw.stop();
      for (const o of orders) {
        const res = await fetch(`${first.url}/api/payments/ecpay/notify`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: ecpayNotice(o.orderNo, '1', '交易成功', { TradeNo: o.tradeNo, gwsr: o.gwsr }),
        });
        expect(await res.text()).toBe('1|OK');
      }
      const refunded = orders.slice(4);
      const sold = orders.slice(0, 4);
      const staff = await session('gateway-staff@example.com', 'staff');
      for (const o of refunded)
        expect(
          (
            await call(first, staff, 'POST', `/api/admin/orders/${o.orderNo}/actions`, {
              action: 'refund',
              reason: '商品瑕疵',
            })
          ).status,
        ).toBe(200);

      // (A refunded order's invoice is no longer asked of the gateway: nothing is sold.)
      const soldIssues = new Set(sold.map((o) => `invoice.issue:${o.orderNo}`));
      const calls = async () =>
        (await messages()).filter((m) => m.kind === 'payment.refund' || soldIssues.has(m.key));
      // Two tries over, each refused: no claim still under way (it might reach the gateway once it is back).
      await until('every gateway call tried twice and refused', async () => {
        const list = await calls();
        return list.length === 6 && list.every((m) => m.attempts >= 2 && m.last_error !== null && !m.leased);
      });
      const waiting = await calls();
      expect(waiting.map((m) => m.status)).toEqual(Array(6).fill('pending'));
      expect(waiting.filter((m) => m.kind === 'invoice.issue').map((m) => m.last_error)).toEqual(
        Array(4).fill(expect.stringMatching(/^unavailable: /)),
      );
      expect(waiting.filter((m) => m.kind === 'payment.refund').map((m) => m.last_error)).toEqual(
        Array(2).fill(expect.stringMatching(/^trade query: /)),
      );

      // 3. The gateway comes back and carries out the first Issue it gets, but its answer is held;
      //    the worker waiting for it is killed, and the gateway stops again.
      const held = gw.holdNextIssue();
      await gw.start();
      await held;
      first.child.kill('SIGKILL');
      await first.exited();
      await gw.stop();
      expect(gw.issued.filter((i) => i.life === 2)).toHaveLength(1);
      const heldInvoice = gw.issued.find((i) => i.life === 2)!;

      // 4. The gateway starts once more, remembering only what it stored; another instance takes
      //    over once the dead worker's lease has run out.
      await gw.start();
      await start();
      await until('nothing left to deliver', async () =>
        (await messages()).every((m) => m.status !== 'pending'),
      );
      expect((await messages()).filter((m) => m.status !== 'sent')).toEqual([]);

      // Each sold order has exactly one invoice, the very one the gateway issued for it, and the
      // gateway issued exactly one per order over all its lives: none twice, none lost.
      const shopInvoices = await q<{ relate_number: string; invoice_no: string }>(
        'select relate_number, invoice_no from invoices order by relate_number',
      );
      expect(shopInvoices.map((r) => r.relate_number)).toEqual(sold.map((o) => o.orderNo).sort());
      expect(
        [...gw.issued]
          .sort((a, b) => a.relateNumber.localeCompare(b.relateNumber))
          .map((i) => ({ relate_number: i.relateNumber, invoice_no: i.invoiceNo })),
      ).toEqual(shopInvoices);
      const kept = await q<{ relate_number: string; invoice_no: string }>(
        'select relate_number, invoice_no from sandbox_einvoices order by relate_number',
      );
      expect(kept).toEqual(shopInvoices.map((r) => ({ ...r, relate_number: r.relate_number.toUpperCase() })));
      // The Issue whose answer was lost was found again (GetIssue by RelateNumber), not issued twice.
      expect(shopInvoices).toContainEqual({
        relate_number: heldInvoice.relateNumber,
        invoice_no: heldInvoice.invoiceNo,
      });

      // Each refunded order got its card refund exactly once, and no invoice (it was no longer sold).
      for (const o of refunded) {
        expect(await gw.trades().get(o.tradeNo)).toMatchObject({ refunded: 600, closedAmount: 0 });
        expect(
          await q(`select r.status from refunds r join orders o on o.id = r.order_id where o.order_no = $1`, [
            o.orderNo,
          ]),
        ).toEqual([{ status: 'done' }]);
      }
      for (const o of sold) expect(await gw.trades().get(o.tradeNo)).toMatchObject({ refunded: 0 });

      const final = await messages();
      expect(
        final.filter(
          (m) => m.kind === 'invoice.issue' && m.key === `invoice.issue:${heldInvoice.relateNumber}`,
        )[0]!.attempts,
      ).toBeGreaterThanOrEqual(4);
      expect(final.filter((m) => m.kind === 'invoice.void')).toHaveLength(2);
    }, 60_000);
  },
);
