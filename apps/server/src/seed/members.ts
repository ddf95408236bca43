import type { Db, Tx } from '../db/client.ts';
import { coupons, users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { addItem } from '../modules/cart/service.ts';
import { demoStoreLocator } from '../modules/logistics/sandbox/stores.ts';
import { rememberStore } from '../modules/logistics/stores.ts';
import { addAddress } from '../modules/membership/profile.ts';
import { membershipDiscounts, recomputeTier } from '../modules/membership/service.ts';
import { placeOrder } from '../modules/orders/checkout.ts';
import { advanceOrder } from '../modules/orders/lifecycle.ts';
import type { OrderDeps } from '../modules/orders/order-deps.ts';
import { recordAtmInfo, recordPaid } from '../modules/orders/payment-results.ts';
import { memoryEventBus } from '../plugins/events.ts';
import type { Mailer } from '../plugins/mail.ts';
import { eq } from 'drizzle-orm';
import { productVariants } from '../db/schema.ts';

/** The demo member of README: signs in with these and finds a lived-in member area. */
export const DEMO_MEMBER = {
  email: 'demo@shanlan-tea.example',
  password: '山嵐茶事-demo-2026',
  displayName: '林小嵐',
} as const;

const DAY = 86_400_000;

/** Demo data is history, not news: nothing is mailed. */
const silentMailer: Mailer = {
  kind: 'mailbox',
  enqueue: async () => {},
  queue: async () => {},
  flush: () => {},
};

async function variantId(tx: Tx, sku: string): Promise<string> {
  const [row] = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.sku, sku))
    .limit(1);
  if (!row) throw new Error(`demo variant ${sku} is missing`);
  return row.id;
}

/**
 * Coupons and the demo member with addresses and orders in several states, made through the same
 * services a shopper's clicks go through (cart → order → payment → shipping).
 */
export async function seedMembers(tx: Tx, publicUrl: string): Promise<string> {
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
  await tx.insert(coupons).values([
    {
      code: 'WELCOME200',
      name: '新會員見面禮',
      kind: 'fixed',
      value: 200,
      minSpend: 1500,
      startsAt: at(30),
      endsAt: new Date(now + 120 * DAY),
      perMemberLimit: 1,
      listed: true,
    },
    {
      code: 'TEA10',
      name: '銀卡金卡限定 9 折',
      kind: 'percent',
      value: 10,
      minSpend: 2000,
      startsAt: at(10),
      endsAt: new Date(now + 60 * DAY),
      perMemberLimit: 3,
      tierCodes: ['silver', 'gold'],
      listed: true,
    },
    {
      code: 'SPRING2027',
      name: '2027 春茶預購',
      kind: 'fixed',
      value: 300,
      minSpend: 2500,
      startsAt: new Date(now + 100 * DAY),
      endsAt: new Date(now + 160 * DAY),
      listed: true,
    },
    {
      code: 'SUMMER2026',
      name: '夏日冷泡祭',
      kind: 'percent',
      value: 15,
      minSpend: 800,
      startsAt: at(150),
      endsAt: at(80),
      listed: true,
    },
  ]);

  const [member] = await tx
    .insert(users)
    .values({
      email: DEMO_MEMBER.email,
      displayName: DEMO_MEMBER.displayName,
      passwordHash: await hashPassword(DEMO_MEMBER.password),
      emailVerifiedAt: at(200),
      phone: '0912345678',
      birthday: '1990-05-20',
    })
    .returning({ id: users.id });
  const userId = member!.id;
  await addAddress(tx, userId, {
    kind: 'home',
    label: '家裡',
    recipientName: '林小嵐',
    phone: '0912345678',
    city: '臺中市',
    district: '西屯區',
    address: '臺灣大道三段 99 號 12 樓',
    isDefault: true,
  });
  // The 7-ELEVEN near home, as if picked on the store map earlier.
  const store = (await demoStoreLocator().search('7-ELEVEN', '鹿谷', 1))[0];
  if (store) await rememberStore(tx, store);
  if (store)
    await addAddress(tx, userId, {
      kind: 'cvs',
      label: '老家附近',
      recipientName: '林小嵐',
      phone: '0912345678',
      cvsBrand: '7-ELEVEN',
      storeId: store.id,
      isDefault: false,
    });

  let clock = new Date();
  const deps: OrderDeps = {
    db: tx as unknown as Db,
    mailer: silentMailer,
    events: memoryEventBus(),
    discounts: membershipDiscounts(() => clock),
    gateway: {
      merchantId: '3002607',
      hashKey: 'pwFHCqoQZGmho4w6',
      hashIV: 'EkRm7iFT261dpevs',
      endpoint: undefined,
      publicUrl,
    },
    publicUrl,
    now: () => clock,
  };
  const home = {
    method: 'home' as const,
    recipientName: '林小嵐',
    phone: '0912345678',
    city: '臺中市',
    district: '西屯區',
    address: '臺灣大道三段 99 號 12 樓',
  };
  const order = async (
    daysAgo: number,
    skus: Array<[string, number]>,
    paymentMethod: 'credit_card' | 'atm' | 'cod',
    key: string,
  ) => {
    clock = at(daysAgo);
    for (const [sku, qty] of skus) await addItem(tx, userId, await variantId(tx, sku), qty);
    return (
      await placeOrder(deps, userId, {
        idempotencyKey: `demo-order-${key}-0000000000`,
        shipping: home,
        invoice: { type: 'member' },
        paymentMethod,
      })
    ).order;
  };
  const paid = async (o: { orderNo: string; total: number }) =>
    recordPaid(deps, {
      merchantTradeNo: `${o.orderNo}P1`,
      amount: o.total,
      tradeNo: `DEMO${o.orderNo.slice(-6)}`,
      rtnCode: '1',
      rtnMsg: '交易成功',
    });

  // Completed three months ago.
  const first = await order(
    95,
    [
      ['SL-LS-150', 2],
      ['SL-DD-150', 1],
    ],
    'credit_card',
    'completed',
  );
  await paid(first);
  clock = at(94);
  await advanceOrder(deps, first.orderNo, { status: 'processing' });
  await advanceOrder(deps, first.orderNo, {
    status: 'shipped',
    carrier: '黑貓宅急便',
    trackingNo: '905512340001',
    location: '南投鹿谷',
  });
  clock = at(92);
  await advanceOrder(deps, first.orderNo, { shipmentEvent: 'delivered', location: '臺中市西屯區' });
  clock = at(85);
  await advanceOrder(deps, first.orderNo, { status: 'completed' });

  // On its way.
  const second = await order(
    3,
    [
      ['SL-DD-150', 2],
      ['SL-GW-WHT', 1],
    ],
    'credit_card',
    'shipped',
  );
  await paid(second);
  clock = at(2);
  await advanceOrder(deps, second.orderNo, { status: 'processing', note: '茶師備貨中' });
  await advanceOrder(deps, second.orderNo, {
    status: 'shipped',
    carrier: '黑貓宅急便',
    trackingNo: '905512340002',
    location: '南投鹿谷',
  });
  clock = at(1);
  await advanceOrder(deps, second.orderNo, { shipmentEvent: 'in_transit', location: '臺中轉運中心' });

  // Cash on delivery, being packed.
  await order(1, [['SL-MX-075', 1]], 'cod', 'cod');

  // Waiting for an ATM transfer.
  const atm = await order(0.2, [['SL-TGY-150', 1]], 'atm', 'atm');
  const deadline = new Date(now + 3 * DAY).toISOString().slice(0, 10).replaceAll('-', '/');
  await recordAtmInfo(deps, {
    merchantTradeNo: `${atm.orderNo}P1`,
    amount: atm.total,
    tradeNo: 'DEMOATM',
    rtnCode: '2',
    rtnMsg: 'Get VirtualAccount Succeeded',
    bankCode: '812',
    account: '91234567890123',
    expireDate: deadline,
  });

  // Changed their mind.
  const cancelled = await order(20, [['SL-JX-075', 2]], 'credit_card', 'cancelled');
  clock = at(20);
  await advanceOrder(deps, cancelled.orderNo, { status: 'cancelled', note: '會員取消訂單' });

  clock = new Date();
  await recomputeTier(tx, null, userId, clock);
  return `示範會員 ${DEMO_MEMBER.email}（5 筆訂單、2 個常用地址）與 4 張優惠券`;
}
