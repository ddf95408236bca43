import type { AddressBody, AddressView, Profile, UpdateProfileBody } from '@shop/shared/membership';
import { findDistrict } from '@shop/shared/data/tw-districts';
import { MAX_ADDRESSES, type CvsBrandCode } from '@shop/shared/checkout';
import type { DbOrTx } from '../../db/client.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { knownStore } from '../logistics/stores.ts';
import * as repo from './repo.ts';
import { issueBirthdayCoupon } from './service.ts';

export { MAX_ADDRESSES };

export async function getProfile(db: DbOrTx, userId: string, pendingEmail: string | null): Promise<Profile> {
  const u = await repo.findUser(db, userId);
  if (!u) throw new NotFoundError('找不到會員資料。');
  return {
    displayName: u.displayName,
    email: u.email,
    emailVerified: u.emailVerifiedAt !== null,
    phone: u.phone,
    birthday: u.birthday,
    pendingEmail,
  };
}

/** Name and mobile can change any time; the birthday is set once (it unlocks the birthday coupon). */
export async function updateProfile(db: DbOrTx, userId: string, body: UpdateProfileBody): Promise<void> {
  const u = await repo.findBirthday(db, userId);
  if (!u) throw new NotFoundError('找不到會員資料。');
  if (u.birthday && body.birthday !== u.birthday) {
    throw new BadRequestError('生日設定後無法自行修改，如需更正請與客服聯絡。', {
      birthday: '生日設定後無法自行修改，如需更正請與客服聯絡。',
    });
  }
  await repo.updateProfile(db, userId, {
    displayName: body.displayName,
    phone: body.phone || null,
    birthday: body.birthday || null,
  });
  if (!u.birthday && body.birthday) await issueBirthdayCoupon(db, userId);
}

export function toAddressView(a: repo.AddressRow): AddressView {
  return {
    id: a.id,
    kind: a.kind,
    label: a.label,
    recipientName: a.recipientName,
    phone: a.phone,
    city: a.city,
    district: a.district,
    postalCode: a.city && a.district ? (findDistrict(a.city, a.district)?.zip ?? null) : null,
    address: a.address,
    cvsBrand: (a.cvsBrand as CvsBrandCode | null) ?? null,
    storeId: a.storeId,
    storeName: a.storeName,
    storeAddress: a.storeAddress,
    isDefault: a.isDefault,
  };
}

async function addressValues(db: DbOrTx, body: AddressBody) {
  if (body.kind === 'home') {
    return {
      kind: 'home' as const,
      label: body.label,
      recipientName: body.recipientName,
      phone: body.phone,
      city: body.city,
      district: body.district,
      address: body.address,
      cvsBrand: null,
      storeId: null,
      storeName: null,
      storeAddress: null,
    };
  }
  const store = await knownStore(db, body.cvsBrand, body.storeId);
  if (!store)
    throw new BadRequestError('找不到這間門市，請重新選擇。', { storeId: '找不到這間門市，請重新選擇' });
  return {
    kind: 'cvs' as const,
    label: body.label,
    recipientName: body.recipientName,
    phone: body.phone,
    city: null,
    district: null,
    address: null,
    cvsBrand: body.cvsBrand,
    storeId: store.id,
    storeName: store.name,
    storeAddress: store.address,
  };
}

export async function listAddresses(db: DbOrTx, userId: string): Promise<AddressView[]> {
  return (await repo.addressesOf(db, userId)).map(toAddressView);
}

/** The first address becomes the default; a new default replaces the old one. */
export async function addAddress(db: DbOrTx, userId: string, body: AddressBody): Promise<AddressView[]> {
  const values = await addressValues(db, body);
  const count = await repo.countAddresses(db, userId);
  if (count >= MAX_ADDRESSES)
    throw new ConflictError(
      `最多可以儲存 ${MAX_ADDRESSES} 筆地址與門市，請先刪除不用的。`,
      'too-many-addresses',
    );
  const isDefault = body.isDefault || count === 0;
  if (isDefault) await repo.clearDefault(db, userId);
  await repo.insertAddress(db, { ...values, userId, isDefault });
  return listAddresses(db, userId);
}

export async function editAddress(
  db: DbOrTx,
  userId: string,
  id: string,
  body: AddressBody,
): Promise<AddressView[]> {
  const values = await addressValues(db, body);
  if (body.isDefault) await repo.clearDefault(db, userId);
  const updated = await repo.updateAddress(db, userId, id, {
    ...values,
    ...(body.isDefault ? { isDefault: true } : {}),
  });
  if (!updated) throw new NotFoundError('找不到這筆地址。');
  return listAddresses(db, userId);
}

export async function makeDefault(db: DbOrTx, userId: string, id: string): Promise<AddressView[]> {
  await repo.clearDefault(db, userId);
  if (!(await repo.updateAddress(db, userId, id, { isDefault: true })))
    throw new NotFoundError('找不到這筆地址。');
  return listAddresses(db, userId);
}

/** An order's destination as the address book keeps it. */
export interface OrderDestination {
  readonly method: 'home' | 'cvs';
  readonly recipientName: string;
  readonly phone: string;
  readonly city?: string | undefined;
  readonly district?: string | undefined;
  readonly address?: string | undefined;
  readonly cvsBrand?: string | undefined;
  readonly storeId?: string | undefined;
  readonly storeName?: string | undefined;
  readonly storeAddress?: string | undefined;
}

/**
 * 「儲存這個地址」 at checkout: the order's destination joins the address book inside the order's
 * transaction, unless the same recipient and place are already there or the book is full (the order
 * goes ahead either way). The first address becomes the default. Answers whether it was saved.
 */
export async function saveOrderDestination(
  db: DbOrTx,
  userId: string,
  d: OrderDestination,
): Promise<boolean> {
  const saved = await repo.addressesOf(db, userId);
  const digits = (phone: string) => phone.replace(/\D/g, '');
  const same = saved.some(
    (a) =>
      a.kind === d.method &&
      a.recipientName === d.recipientName &&
      digits(a.phone) === digits(d.phone) &&
      (d.method === 'home'
        ? a.city === (d.city ?? null) &&
          a.district === (d.district ?? null) &&
          a.address === (d.address ?? null)
        : a.cvsBrand === (d.cvsBrand ?? null) && a.storeId === (d.storeId ?? null)),
  );
  if (same || saved.length >= MAX_ADDRESSES) return false;
  const home = d.method === 'home';
  await repo.insertAddress(db, {
    userId,
    kind: d.method,
    label: '',
    recipientName: d.recipientName,
    phone: d.phone,
    city: home ? (d.city ?? null) : null,
    district: home ? (d.district ?? null) : null,
    address: home ? (d.address ?? null) : null,
    cvsBrand: home ? null : (d.cvsBrand ?? null),
    storeId: home ? null : (d.storeId ?? null),
    storeName: home ? null : (d.storeName ?? null),
    storeAddress: home ? null : (d.storeAddress ?? null),
    isDefault: saved.length === 0,
  });
  return true;
}

/** Deleting the default makes the oldest remaining address the default. */
export async function removeAddress(db: DbOrTx, userId: string, id: string): Promise<AddressView[]> {
  const removed = await repo.deleteAddress(db, userId, id);
  if (!removed) throw new NotFoundError('找不到這筆地址。');
  if (removed.isDefault) {
    const [first] = await repo.addressesOf(db, userId);
    if (first) await repo.updateAddress(db, userId, first.id, { isDefault: true });
  }
  return listAddresses(db, userId);
}

/** Forgets a member's address book (a deleted account), in the caller's transaction. */
export function forgetAddresses(db: DbOrTx, userId: string): Promise<void> {
  return repo.deleteAddressesOf(db, userId);
}
