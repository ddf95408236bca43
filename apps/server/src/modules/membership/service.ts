import { randomBytes } from 'node:crypto';
import type { CouponView, MembershipResponse, TierView } from '@shop/shared/membership';
import { percentOf } from '@shop/shared/membership';
import { formatTwd } from '@shop/shared/money';
import type { DbOrTx } from '../../db/client.ts';
import type { AppliedDiscount } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { EventBus } from '../../plugins/events.ts';
import type { DiscountInput, DiscountProvider, DiscountQuote } from '../discounts/provider.ts';
import * as repo from './repo.ts';
import { formatTaipeiDate, taipeiParts } from '@shop/shared/taipei-time';
import { readTogether } from '../../db/reads.ts';

const toTierView = (t: repo.TierRow): TierView => ({
  code: t.code,
  name: t.name,
  threshold: t.threshold,
  discountPercent: t.discountPercent,
  freeShippingOver: t.freeShippingOver,
});

/** The highest tier whose threshold the spending reaches. */
export function tierFor(all: readonly repo.TierRow[], spend: number): repo.TierRow {
  const sorted = [...all].sort((a, b) => a.threshold - b.threshold);
  return sorted.filter((t) => spend >= t.threshold).at(-1) ?? sorted[0]!;
}

/**
 * Recomputes a member's tier from paid spending of the last 12 months; when it changes the member's
 * open pages hear of it. Called when an order is paid, completed, cancelled or refunded.
 */
export async function recomputeTier(
  db: DbOrTx,
  events: EventBus | null,
  userId: string,
  now = new Date(),
): Promise<string> {
  const [all, spend] = await readTogether(db, [() => repo.tiers(db), () => repo.spendOf(db, userId, now)]);
  const tier = tierFor(all, spend);
  if ((await repo.setTier(db, userId, tier.code)) && events) {
    await events.publish(userId, {
      type: 'membership.updated',
      data: { tier: tier.code, tierName: tier.name },
    });
  }
  return tier.code;
}

// ── coupons ─────────────────────────────────────────────────────────────────────────────────────

export interface CouponCheck {
  readonly ok: boolean;
  readonly reason?: string;
  readonly amount?: number;
  readonly coupon?: repo.CouponRow;
}

/** Plain zh-TW conditions of a coupon, e.g. 「滿 NT$1,500 折 NT$200，限金卡會員」. */
export function describeCoupon(
  c: repo.CouponRow,
  tierNames: Map<string, string>,
  categoryNames: string[],
): string {
  const value =
    c.kind === 'percent'
      ? `享 ${100 - c.value === 0 ? '免費' : `${(100 - c.value) % 10 === 0 ? (100 - c.value) / 10 : 100 - c.value} 折`}`
      : `折 ${formatTwd(c.value)}`;
  const parts = [c.minSpend > 0 ? `滿 ${formatTwd(c.minSpend)} ${value}` : `全單${value}`];
  if (categoryNames.length > 0) parts.push(`限${categoryNames.join('、')}商品`);
  if (c.tierCodes && c.tierCodes.length > 0)
    parts.push(`限${c.tierCodes.map((t) => tierNames.get(t) ?? t).join('、')}使用`);
  parts.push(c.perMemberLimit === 1 ? '每人限用 1 次' : `每人限用 ${c.perMemberLimit} 次`);
  parts.push(`${formatTaipeiDate(c.startsAt)} 至 ${formatTaipeiDate(c.endsAt)}`);
  return parts.join('，');
}

/**
 * Checks a coupon for a member and a cart and works out its amount. Each refusal has its own
 * zh-TW reason: unknown, paused, not yet valid, expired, not for the tier, used up, already used,
 * no eligible items, minimum not met.
 */
export async function checkCoupon(
  db: DbOrTx,
  input: {
    userId: string;
    tierCode: string;
    code: string;
    lines: DiscountInput['lines'];
    afterTierDiscount: number;
    subtotal: number;
  },
  now: Date,
  opts: { forUpdate?: boolean } = {},
): Promise<CouponCheck> {
  const coupon = await repo.findCoupon(db, input.code, opts);
  if (!coupon || (coupon.ownerId !== null && coupon.ownerId !== input.userId))
    return { ok: false, reason: '找不到這個優惠碼，請確認是否輸入正確。' };
  if (coupon.status !== 'active') return { ok: false, reason: '這個優惠碼目前暫停使用。' };
  if (now < coupon.startsAt)
    return { ok: false, reason: `這個優惠碼 ${formatTaipeiDate(coupon.startsAt)} 才開始使用。` };
  if (now >= coupon.endsAt)
    return {
      ok: false,
      reason: `這個優惠碼已於 ${formatTaipeiDate(new Date(coupon.endsAt.getTime() - 1))} 到期。`,
    };
  if (coupon.tierCodes && coupon.tierCodes.length > 0 && !coupon.tierCodes.includes(input.tierCode)) {
    const names = new Map((await repo.tiers(db)).map((t) => [t.code, t.name]));
    return {
      ok: false,
      reason: `這個優惠碼限${coupon.tierCodes.map((t) => names.get(t) ?? t).join('、')}使用。`,
    };
  }
  if (coupon.totalLimit !== null && coupon.usedCount >= coupon.totalLimit)
    return { ok: false, reason: '這個優惠碼已經被用完了。' };
  if ((await repo.memberUses(db, coupon.id, input.userId)) >= coupon.perMemberLimit)
    return { ok: false, reason: '您已經用過這個優惠碼了。' };

  let eligible = input.subtotal;
  if (coupon.categoryIds && coupon.categoryIds.length > 0) {
    const cats = await repo.productCategories(
      db,
      input.lines.map((l) => l.productId),
    );
    const allowed = new Set(coupon.categoryIds);
    eligible = input.lines
      .filter((l) => (cats.get(l.productId) ?? []).some((c) => allowed.has(c)))
      .reduce((n, l) => n + l.lineTotal, 0);
    if (eligible === 0) return { ok: false, reason: '購物車裡沒有適用這個優惠碼的商品。' };
  }
  if (eligible < coupon.minSpend)
    return {
      ok: false,
      reason: `${coupon.categoryIds?.length ? '適用商品' : '訂單'}滿 ${formatTwd(coupon.minSpend)} 才能使用這個優惠碼（還差 ${formatTwd(coupon.minSpend - eligible)}）。`,
    };
  // The coupon applies to what is left after the tier discount, share by share.
  const base = input.subtotal > 0 ? Math.round((eligible * input.afterTierDiscount) / input.subtotal) : 0;
  const amount = Math.min(base, coupon.kind === 'percent' ? percentOf(base, coupon.value) : coupon.value);
  return { ok: true, amount, coupon };
}

/**
 * Checkout's discounts: the automatic tier discount, then at most one coupon. The coupon's use is
 * counted in the order transaction (`commit`), under a row lock and a conditional update, so a
 * coupon with one use left cannot be spent twice by concurrent checkouts.
 */
export function membershipDiscounts(now: () => Date = () => new Date()): DiscountProvider {
  return {
    async quote(db, input): Promise<DiscountQuote> {
      const { all, memberTierCode } = await repo.tiersForMember(db, input.userId);
      const tier = all.find((t) => t.code === memberTierCode) ?? all[0]!;
      const discounts: AppliedDiscount[] = [];
      const tierAmount = tier.discountPercent > 0 ? percentOf(input.subtotal, tier.discountPercent) : 0;
      if (tierAmount > 0)
        discounts.push({
          kind: 'tier',
          label: `${tier.name}折扣 ${tier.discountPercent}%`,
          amount: tierAmount,
        });
      let couponError: string | null = null;
      let couponId: string | null = null;
      let couponAmount = 0;
      if (input.couponCode) {
        const check = await checkCoupon(
          db,
          {
            userId: input.userId,
            tierCode: tier.code,
            code: input.couponCode,
            lines: input.lines,
            afterTierDiscount: input.subtotal - tierAmount,
            subtotal: input.subtotal,
          },
          now(),
        );
        if (check.ok && check.coupon && check.amount !== undefined) {
          couponId = check.coupon.id;
          couponAmount = check.amount;
          discounts.push({
            kind: 'coupon',
            code: check.coupon.code,
            label: `優惠碼 ${check.coupon.code}（${check.coupon.name}）`,
            amount: check.amount,
          });
        } else couponError = check.reason ?? '這個優惠碼無法使用。';
      }
      return {
        discounts,
        couponError,
        ...(tier.freeShippingOver !== null ? { freeOverOverride: tier.freeShippingOver } : {}),
        async commit(tx, orderId) {
          if (!couponId || !input.couponCode) return;
          // Again under the lock: another checkout may have taken the last use meanwhile.
          const again = await checkCoupon(
            tx,
            {
              userId: input.userId,
              tierCode: tier.code,
              code: input.couponCode,
              lines: input.lines,
              afterTierDiscount: input.subtotal - tierAmount,
              subtotal: input.subtotal,
            },
            now(),
            { forUpdate: true },
          );
          if (!again.ok || !(await repo.takeCouponUse(tx, couponId))) {
            throw new AppError(409, 'coupon-refused', again.reason ?? '這個優惠碼已經被用完了。', {
              couponCode: again.reason ?? '這個優惠碼已經被用完了。',
            });
          }
          await repo.insertRedemption(tx, { couponId, userId: input.userId, orderId, amount: couponAmount });
        },
      };
    },
  };
}

/** An unpaid order that is cancelled or expires gives its coupon uses back (inside the order's transaction). */
export async function releaseRedemptions(tx: DbOrTx, orderId: string): Promise<void> {
  await repo.releaseRedemptions(tx, orderId);
}

/**
 * A late payment brings an expired order back: the coupon uses it gave back on expiry are counted
 * again, within the coupon's total and per-member limits (its dates no longer matter: the price was
 * agreed when the order was placed). False, with nothing counted, when a limit is reached; the
 * caller then rolls back and keeps the payment for a refund (docs/product-rules.md).
 */
export async function reclaimCouponUses(
  tx: DbOrTx,
  order: { id: string; userId: string; discounts: readonly AppliedDiscount[] },
): Promise<boolean> {
  for (const d of order.discounts) {
    if (d.kind !== 'coupon' || !d.code) continue;
    const coupon = await repo.findCoupon(tx, d.code, { forUpdate: true });
    if (!coupon) return false;
    if ((await repo.memberUses(tx, coupon.id, order.userId)) >= coupon.perMemberLimit) return false;
    if (!(await repo.takeCouponUse(tx, coupon.id))) return false;
    await repo.insertRedemption(tx, {
      couponId: coupon.id,
      userId: order.userId,
      orderId: order.id,
      amount: d.amount,
    });
  }
  return true;
}

// ── what the member sees ────────────────────────────────────────────────────────────────────────

export async function membership(db: DbOrTx, userId: string, now = new Date()): Promise<MembershipResponse> {
  const [all, spend, member, coupons] = await readTogether(db, [
    () => repo.tiers(db),
    () => repo.spendOf(db, userId, now),
    () => repo.userTier(db, userId),
    () => repo.couponsFor(db, userId),
  ]);
  const sorted = [...all].sort((a, b) => a.threshold - b.threshold);
  const current = sorted.find((t) => t.code === member?.tierCode) ?? tierFor(sorted, spend);
  const next = sorted.find((t) => t.threshold > current.threshold) ?? null;
  const tierNames = new Map(all.map((t) => [t.code, t.name]));
  const views: CouponView[] = [];
  for (const c of coupons) {
    const state: CouponView['state'] =
      c.uses >= c.perMemberLimit
        ? 'used'
        : now >= c.endsAt || (c.totalLimit !== null && c.usedCount >= c.totalLimit)
          ? 'expired'
          : now < c.startsAt
            ? 'not-yet'
            : c.tierCodes?.length && !c.tierCodes.includes(current.code)
              ? 'not-for-tier'
              : 'usable';
    views.push({
      code: c.code,
      name: c.name,
      description: describeCoupon(c, tierNames, await repo.categoryNames(db, c.categoryIds ?? [])),
      startsAt: c.startsAt.toISOString(),
      endsAt: c.endsAt.toISOString(),
      state,
      personal: c.ownerId !== null,
    });
  }
  return {
    tiers: sorted.map(toTierView),
    current: toTierView(current),
    next: next ? toTierView(next) : null,
    spend,
    toNext: next ? Math.max(0, next.threshold - spend) : 0,
    coupons: views,
  };
}

// ── birthday coupons ───────────────────────────────────────────────────────────────────────────

function taipeiYearMonth(date: Date): { year: number; month: number } {
  const p = taipeiParts(date);
  return { year: Number(p.year), month: Number(p.month) };
}

/**
 * The birthday-month coupon: NT$200 off NT$1,000, valid through the end of the month. Once per
 * member and Taipei year, held by a unique index (so two runs at once, or two instances, still make
 * one), and never for an account created this month (docs/product-rules.md).
 */
export async function issueBirthdayCoupon(
  db: DbOrTx,
  userId: string,
  now = new Date(),
  options: { drawCode?: (year: number) => string } = {},
): Promise<boolean> {
  const drawCode =
    options.drawCode ?? ((year: number) => `BDAY${year}-${randomBytes(3).toString('hex').toUpperCase()}`);
  const member = await repo.userTier(db, userId);
  if (!member?.birthday) return false;
  const { year, month } = taipeiYearMonth(now);
  if (Number(member.birthday.slice(5, 7)) !== month) return false;
  const joined = taipeiYearMonth(member.createdAt);
  if (joined.year === year && joined.month === month) return false;
  const start = new Date(`${year}-${String(month).padStart(2, '0')}-01T00:00:00+08:00`);
  const end = new Date(
    `${month === 12 ? year + 1 : year}-${String(month === 12 ? 1 : month + 1).padStart(2, '0')}-01T00:00:00+08:00`,
  );
  const coupon = {
    name: '生日月禮券',
    kind: 'fixed' as const,
    value: 200,
    minSpend: 1000,
    startsAt: start,
    endsAt: end,
    perMemberLimit: 1,
    ownerId: userId,
    birthdayYear: year,
  };
  // A code is drawn at random, so among thousands of members two draws meet now and then: the
  // insert then keeps nothing. Unless this member already has this year's coupon (the one-per-year
  // index), draw again rather than skip them.
  for (let draw = 0; draw < 5; draw++) {
    if (await repo.insertCouponOnce(db, { ...coupon, code: drawCode(year) })) return true;
    if (await repo.hasBirthdayCoupon(db, userId, year)) return false;
  }
  throw new Error('birthday coupon: five drawn codes were all taken');
}

/** Gives every member born this month their coupon (the jobs plugin runs it a few times a day). */
export async function issueBirthdayCoupons(db: DbOrTx, now = new Date()): Promise<number> {
  let issued = 0;
  for (const m of await repo.membersBornIn(db, taipeiYearMonth(now).month))
    if (await issueBirthdayCoupon(db, m.id, now)) issued += 1;
  return issued;
}
