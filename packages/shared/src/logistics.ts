import { z } from 'zod';
import { CVS_BRANDS, type CvsBrandCode } from './checkout.ts';

/**
 * Choosing a pickup store on the store map (ECPay's 電子地圖, or the sandbox's): the page asks the
 * server for a map form, the browser posts it, the map sends the chosen store back to the server,
 * and the browser lands on the page it came from with `?cvsMap=<token>`, which reads the choice.
 * docs/decisions/013-ecpay-logistics.md.
 */

/**
 * Where the map sends the shopper back to: the checkout, the address book in the member area, or
 * an order's tracking page (a new store for a parcel whose store closed).
 */
export const CVS_MAP_RETURNS = {
  checkout: '/payment',
  'address-book': '/member',
  order: '/member/orderTracking',
} as const;
export type CvsMapReturn = keyof typeof CVS_MAP_RETURNS;

export function cvsMapReturnPath(returnTo: CvsMapReturn, orderNo?: string): string {
  return returnTo === 'order'
    ? `${CVS_MAP_RETURNS.order}/${encodeURIComponent(orderNo ?? '')}`
    : CVS_MAP_RETURNS[returnTo];
}

/** The query parameter the map's way back carries. */
export const CVS_MAP_PARAM = 'cvsMap';

/** How long a trip to the map may take before its reply is refused. */
export const CVS_MAP_TTL_MS = 30 * 60_000;

export const CvsMapFormBody = z
  .object({
    brand: z.enum(CVS_BRANDS, { message: '請選擇超商' }),
    returnTo: z.enum(Object.keys(CVS_MAP_RETURNS) as [CvsMapReturn, ...CvsMapReturn[]], {
      message: '請重新整理頁面後再試',
    }),
    /** The map's phone layout (ECPay's Device 1) or the desktop one. */
    device: z.enum(['pc', 'mobile']).default('pc'),
    /** With returnTo `order`: whose tracking page. */
    orderNo: z
      .string()
      .max(20, { abort: true })
      .regex(/^TW\d{14}$/, '訂單編號不正確')
      .optional(),
  })
  .strict()
  .refine((v) => v.returnTo !== 'order' || v.orderNo, { message: '請重新整理頁面後再試', path: ['orderNo'] });
export type CvsMapFormBody = z.infer<typeof CvsMapFormBody>;

/** A form the browser posts as it is: the map's address and its fields. */
export const CvsMapForm = z.object({ action: z.string(), fields: z.record(z.string(), z.string()) });
export type CvsMapForm = z.infer<typeof CvsMapForm>;

export const CvsStoreChoice = z.object({
  brand: z.enum(CVS_BRANDS),
  id: z.string(),
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  outlying: z.boolean(),
});
export type CvsStoreChoice = z.infer<typeof CvsStoreChoice>;

export const CvsMapToken = z
  .string()
  .max(20, { message: '這次的門市選擇已失效，請重新選擇門市', abort: true })
  .regex(/^[A-Za-z0-9]{20}$/, '這次的門市選擇已失效，請重新選擇門市');

/** The chains this shop's logistics contract can ship to (OK超商 only on 店到店 / C2C). */
export const LogisticsOptions = z.object({ brands: z.array(z.enum(CVS_BRANDS)) });
export type LogisticsOptions = z.infer<typeof LogisticsOptions>;

export function cvsBrandsFor(type: 'B2C' | 'C2C'): CvsBrandCode[] {
  return type === 'C2C' ? [...CVS_BRANDS] : CVS_BRANDS.filter((b) => b !== 'OK');
}

/** Labels (寄件單 / 託運單) for up to 50 orders at once, printed on ECPay's (or the sandbox's) pages. */
export const LabelsBody = z
  .object({
    orderNos: z
      .array(
        z
          .string()
          .max(20, { message: '訂單編號不正確', abort: true })
          .regex(/^TW\d{14}$/, '訂單編號不正確'),
        { error: '請選擇訂單' },
      )
      .min(1, '請選擇訂單')
      .max(50, '一次最多列印 50 張'),
  })
  .strict();
export type LabelsBody = z.infer<typeof LabelsBody>;

export const LabelsResponse = z.object({
  forms: z.array(
    z.object({
      path: z.string(),
      count: z.number().int(),
      action: z.string(),
      fields: z.record(z.string(), z.string()),
    }),
  ),
  /** Orders without a parcel made through ECPay (shipped by hand, or not shipped yet). */
  missing: z.array(z.string()),
});
export type LabelsResponse = z.infer<typeof LabelsResponse>;

/** The new pickup store for a parcel whose store closed: the token of the map trip that chose it. */
export const PickupStoreBody = z.object({ token: CvsMapToken }).strict();
export type PickupStoreBody = z.infer<typeof PickupStoreBody>;
