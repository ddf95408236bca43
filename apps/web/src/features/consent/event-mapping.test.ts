import { describe, expect, it } from 'vitest';
import type { ShopEvent } from '../../lib/shop-events.ts';
import { ga4Call, lineCall, metaCall } from './event-mapping.ts';

const tea = { id: 'DD-150', name: '凍頂烏龍茶', variant: '150 g', price: 480, quantity: 2 };
const cup = { id: 'CUP-1', name: '白瓷品茗杯', variant: '一只', price: 350, quantity: 1 };
const purchase: ShopEvent = {
  name: 'purchase',
  orderNo: 'TW20261128000123',
  value: 1430,
  shipping: 120,
  items: [tea, cup],
};
const viewed: ShopEvent = { name: 'view_item', value: 480, items: [{ ...tea, quantity: 1 }] };

describe('GA4', () => {
  it('gets a purchase with transaction_id, TWD, the server’s integer value and each item', () => {
    expect(ga4Call(purchase)).toEqual([
      'event',
      'purchase',
      {
        currency: 'TWD',
        value: 1430,
        transaction_id: 'TW20261128000123',
        shipping: 120,
        items: [
          { item_id: 'DD-150', item_name: '凍頂烏龍茶', item_variant: '150 g', price: 480, quantity: 2 },
          { item_id: 'CUP-1', item_name: '白瓷品茗杯', item_variant: '一只', price: 350, quantity: 1 },
        ],
      },
    ]);
  });

  it('keeps its own event names for the other moments, without a transaction', () => {
    for (const name of ['view_item', 'add_to_cart', 'begin_checkout'] as const) {
      const [, sent, params] = ga4Call({ name, value: 960, items: [tea] });
      expect(sent).toBe(name);
      expect(params).toMatchObject({ currency: 'TWD', value: 960 });
      expect(params).not.toHaveProperty('transaction_id');
    }
  });
});

describe('Meta Pixel', () => {
  it('gets a Purchase with value, currency, content_ids and contents, keyed by the order number', () => {
    expect(metaCall(purchase)).toEqual([
      'track',
      'Purchase',
      {
        value: 1430,
        currency: 'TWD',
        content_ids: ['DD-150', 'CUP-1'],
        contents: [
          { id: 'DD-150', quantity: 2, item_price: 480 },
          { id: 'CUP-1', quantity: 1, item_price: 350 },
        ],
        content_type: 'product',
        num_items: 3,
      },
      { eventID: 'TW20261128000123' },
    ]);
  });

  it('names the other moments by its standard events', () => {
    expect(metaCall(viewed).slice(0, 2)).toEqual(['track', 'ViewContent']);
    expect(metaCall(viewed)[2]).toMatchObject({ content_name: '凍頂烏龍茶', content_ids: ['DD-150'] });
    expect(metaCall({ name: 'add_to_cart', value: 960, items: [tea] })[1]).toBe('AddToCart');
    expect(metaCall({ name: 'begin_checkout', value: 1310, items: [tea, cup] })).toEqual([
      'track',
      'InitiateCheckout',
      expect.objectContaining({ value: 1310, currency: 'TWD', num_items: 3 }),
    ]);
  });
});

describe('LINE Tag', () => {
  const tagId = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
  it('sends a purchase as LINE’s standard Conversion, to this tag', () => {
    expect(lineCall(purchase, tagId)).toEqual(['send', 'cv', { type: 'Conversion' }, [tagId]]);
  });

  it('sends the other moments as named custom events', () => {
    expect(lineCall(viewed, tagId)[2]).toEqual({ type: 'ViewItemDetail' });
    expect(lineCall({ name: 'add_to_cart', value: 1, items: [tea] }, tagId)[2]).toEqual({
      type: 'AddToCart',
    });
    expect(lineCall({ name: 'begin_checkout', value: 1, items: [tea] }, tagId)[2]).toEqual({
      type: 'InitiateCheckout',
    });
  });
});
