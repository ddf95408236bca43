import type { ShopEvent, ShopItem } from '../../lib/shop-events.ts';

/**
 * The shop's e-commerce moments in each provider's own words (docs/decisions/042): what is handed
 * to gtag, fbq and _lt. Amounts are the server's integers of TWD, passed as they are.
 *
 * - GA4 (gtag.js recommended e-commerce events): view_item, add_to_cart, begin_checkout, purchase,
 *   with currency, value and items (item_id, item_name, item_variant, price, quantity); a purchase
 *   adds transaction_id and shipping.
 * - Meta Pixel standard events: ViewContent, AddToCart, InitiateCheckout, Purchase, with value,
 *   currency, content_ids, contents ({ id, quantity, item_price }) and content_type 'product'; the
 *   order number is the event ID, so a server-side copy could be deduplicated later.
 * - LINE Tag: `_lt('send', 'cv', { type }, [tagId])`. 'Conversion' is LINE's standard conversion
 *   (the purchase); the other moments are custom events by name (ViewItemDetail, AddToCart,
 *   InitiateCheckout) that the owner may set up as custom conversions in LINE's ad manager.
 */
export const CURRENCY = 'TWD';

type Ga4Call = ['event', string, Record<string, unknown>];

export function ga4Call(event: ShopEvent): Ga4Call {
  const items = event.items.map((item: ShopItem) => ({
    item_id: item.id,
    item_name: item.name,
    item_variant: item.variant,
    price: item.price,
    quantity: item.quantity,
  }));
  const params: Record<string, unknown> = { currency: CURRENCY, value: event.value, items };
  if (event.name === 'purchase') {
    params.transaction_id = event.orderNo;
    params.shipping = event.shipping;
  }
  return ['event', event.name, params];
}

const META_NAMES = {
  view_item: 'ViewContent',
  add_to_cart: 'AddToCart',
  begin_checkout: 'InitiateCheckout',
  purchase: 'Purchase',
} as const satisfies Record<ShopEvent['name'], string>;

type MetaCall =
  | ['track', string, Record<string, unknown>]
  | ['track', string, Record<string, unknown>, { eventID: string }];

export function metaCall(event: ShopEvent): MetaCall {
  const params: Record<string, unknown> = {
    value: event.value,
    currency: CURRENCY,
    content_ids: event.items.map((item) => item.id),
    contents: event.items.map((item) => ({ id: item.id, quantity: item.quantity, item_price: item.price })),
    content_type: 'product',
  };
  if (event.name === 'begin_checkout' || event.name === 'purchase')
    params.num_items = event.items.reduce((sum, item) => sum + item.quantity, 0);
  if (event.name === 'view_item') params.content_name = event.items[0]?.name ?? '';
  const name = META_NAMES[event.name];
  return event.name === 'purchase'
    ? ['track', name, params, { eventID: event.orderNo }]
    : ['track', name, params];
}

const LINE_TYPES = {
  view_item: 'ViewItemDetail',
  add_to_cart: 'AddToCart',
  begin_checkout: 'InitiateCheckout',
  purchase: 'Conversion',
} as const satisfies Record<ShopEvent['name'], string>;

export function lineCall(event: ShopEvent, tagId: string): ['send', 'cv', { type: string }, string[]] {
  return ['send', 'cv', { type: LINE_TYPES[event.name] }, [tagId]];
}
