import type { CartLine } from '@shop/shared/cart';
import type { OrderDetail } from '@shop/shared/orders';

/**
 * The shop's e-commerce moments (a product viewed, added to the cart, checkout begun, an order
 * placed), told by the pages and heard by the measurement providers the visitor consented to
 * (features/consent). Amounts are the server's integers of TWD. Until the consent code is loaded
 * the moments wait here (a few at most); with no consent they are never sent.
 */
export interface ShopItem {
  /** The variant's SKU. */
  readonly id: string;
  readonly name: string;
  readonly variant: string;
  readonly price: number;
  readonly quantity: number;
}

export type ShopEvent =
  | {
      readonly name: 'view_item' | 'add_to_cart' | 'begin_checkout';
      readonly value: number;
      readonly items: readonly ShopItem[];
    }
  | {
      readonly name: 'purchase';
      readonly orderNo: string;
      readonly value: number;
      readonly shipping: number;
      readonly items: readonly ShopItem[];
    };

const waiting: ShopEvent[] = [];
const MAX_WAITING = 10;
let sink: ((event: ShopEvent) => void) | null = null;

export function trackShopEvent(event: ShopEvent): void {
  if (sink) sink(event);
  else if (waiting.length < MAX_WAITING) waiting.push(event);
}

/**
 * Where moments go from now on. `replay`: also the ones told while the consent code was loading
 * (true when the visitor had consented before this page; moments from before a fresh consent are
 * dropped, not sent after the fact).
 */
export function setShopEventSink(next: ((event: ShopEvent) => void) | null, replay: boolean): void {
  sink = next;
  const before = waiting.splice(0);
  if (next && replay) for (const event of before) next(event);
}

/** The shop's answers as the moments' items: the server's integer prices, the variant's SKU as id. */
export const cartItems = (lines: readonly CartLine[]): ShopItem[] =>
  lines.map((l) => ({
    id: l.sku,
    name: l.name,
    variant: l.variantLabel,
    price: l.unitPrice,
    quantity: l.quantity,
  }));

export const orderItems = (order: Pick<OrderDetail, 'items'>): ShopItem[] =>
  order.items.map((i) => ({
    id: i.sku,
    name: i.productName,
    variant: i.variantLabel,
    price: i.unitPrice,
    quantity: i.quantity,
  }));
