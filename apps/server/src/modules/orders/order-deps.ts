import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../plugins/events.ts';
import type { Mailer } from '../../plugins/mail.ts';
import type { DiscountProvider } from '../discounts/provider.ts';
import { type ParcelOrder, type ParcelShipped } from '../logistics/shipments.ts';
import { type GatewaySettings } from '../payments/gateway.ts';

/**
 * What the order services take as arguments (deps.ts builds them from the app), so they run the
 * same from a route, a job, the command line or the seed.
 */

export interface OrderDeps {
  readonly db: Db;
  readonly mailer: Mailer;
  readonly events: EventBus;
  readonly discounts: DiscountProvider;
  readonly gateway: GatewaySettings;
  /** LINE Pay is configured (or its built-in sandbox runs): checkout may offer it. */
  readonly linePayOffered?: boolean;
  readonly publicUrl: string;
  /** The shop's own inbox, told of each order to fulfil. */
  readonly shopNotifyEmail?: string | undefined;
  /** Whether ECPay knows a mobile barcode or donation code (the invoices module's cached check). */
  readonly checkCarrier?: (
    kind: 'mobile' | 'donation',
    code: string,
  ) => Promise<'valid' | 'invalid' | 'unverified'>;
  readonly now?: () => Date;
  /** Makes the parcel's logistics order (ECPay, or the sandbox) when staff ship through it. */
  readonly shipParcel?: (order: ParcelOrder) => Promise<ParcelShipped>;
  /**
   * ECPAY_LOGISTICS_AUTO_CREATE: the parcel's logistics order is made as soon as the order is paid
   * (placed, for cash on delivery), so the label is ready; staff shipping then uses it.
   */
  readonly autoParcel?: boolean;
  /** Tells ECPay the parcel's new pickup store (its store closed). */
  readonly changeParcelStore?: (orderId: string, storeId: string) => Promise<void>;
}

export type ChangeDeps = Pick<
  OrderDeps,
  'db' | 'mailer' | 'events' | 'publicUrl' | 'now' | 'shopNotifyEmail' | 'autoParcel'
>;

export const clock = (deps: Pick<OrderDeps, 'now'>) => (deps.now ? deps.now() : new Date());
