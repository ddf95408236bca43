import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { shopper } from '../../../test/shop.ts';
import { coupons, users } from '../../db/schema.ts';
import { issueBirthdayCoupon, issueBirthdayCoupons } from './service.ts';

const DAY = 86_400_000;

/** The birthday-month coupon: once per account and year, never for an account made this month (docs/product-rules.md). */
describe.skipIf(!dbAvailable())('birthday coupons', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const db = () => ctx.database.db;
  const month = () =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei', month: '2-digit' }).format(new Date());
  /** A member born this month whose account is `ageDays` old. */
  async function member(email: string, ageDays: number) {
    const s = await shopper(ctx.app, email);
    await db()
      .update(users)
      .set({ createdAt: new Date(Date.now() - ageDays * DAY) })
      .where(eq(users.email, email));
    return s;
  }
  const birthdayCoupons = (uid: string) =>
    db()
      .select()
      .from(coupons)
      .where(and(eq(coupons.ownerId, uid), eq(coupons.name, '生日月禮券')));

  it('issues one coupon per account and year, however many times it is asked at once', async () => {
    const s = await member('twins@example.com', 400);
    await db()
      .update(users)
      .set({ birthday: `1990-${month()}-15` })
      .where(eq(users.id, s.uid));
    await Promise.all(Array.from({ length: 6 }, () => issueBirthdayCoupon(db(), s.uid)));
    await Promise.all([issueBirthdayCoupons(db()), issueBirthdayCoupons(db())]);
    expect(await birthdayCoupons(s.uid)).toHaveLength(1);
  });

  it('does not issue a second one after the first was paused or used up', async () => {
    const s = await member('paused@example.com', 400);
    await db()
      .update(users)
      .set({ birthday: `1990-${month()}-15` })
      .where(eq(users.id, s.uid));
    expect(await issueBirthdayCoupon(db(), s.uid)).toBe(true);
    await db().update(coupons).set({ status: 'paused' }).where(eq(coupons.ownerId, s.uid));
    expect(await issueBirthdayCoupon(db(), s.uid)).toBe(false);
    expect(await birthdayCoupons(s.uid)).toHaveLength(1);
  });

  it('a database constraint keeps it to one per account and year, whatever the code', async () => {
    const s = await member('constraint@example.com', 400);
    await db()
      .update(users)
      .set({ birthday: `1990-${month()}-15` })
      .where(eq(users.id, s.uid));
    expect(await issueBirthdayCoupon(db(), s.uid)).toBe(true);
    const [first] = await birthdayCoupons(s.uid);
    const copy = { ...first!, id: undefined, code: `${first!.code}X` };
    await expect(db().insert(coupons).values(copy)).rejects.toThrow();
  });

  it('still gives the coupon when the code it drew is already taken (a drawn code collides now and then among thousands)', async () => {
    const first = await member('drew-first@example.com', 400);
    const second = await member('drew-taken@example.com', 400);
    for (const s of [first, second])
      await db()
        .update(users)
        .set({ birthday: `1990-${month()}-15` })
        .where(eq(users.id, s.uid));
    expect(await issueBirthdayCoupon(db(), first.uid)).toBe(true);
    const [taken] = await birthdayCoupons(first.uid);
    const draws = [taken!.code, 'BDAY-FRESH-CODE'];
    expect(
      await issueBirthdayCoupon(db(), second.uid, new Date(), {
        drawCode: () => draws.shift() ?? 'BDAY-SPARE',
      }),
    ).toBe(true);
    expect((await birthdayCoupons(second.uid)).map((c) => c.code)).toEqual(['BDAY-FRESH-CODE']);
  });

  it('gives nothing to an account created this month, even with a birthday this month', async () => {
    const s = await member('newcomer@example.com', 0);
    const res = await s.call('PATCH', '/api/me/profile', {
      displayName: '新朋友',
      phone: '',
      birthday: `1995-${month()}-02`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await issueBirthdayCoupons(db())).toBe(0);
    expect(await birthdayCoupons(s.uid)).toHaveLength(0);
    expect((await s.call('GET', '/api/me/membership')).json().coupons).toEqual([]);
  });
});
