import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '@shop/shared/orders';
import { timelineSteps } from './order-parts.tsx';

type Event = OrderDetail['events'][number];
const event = (e: Partial<Event>): Event => ({
  kind: 'status',
  status: null,
  shipmentEvent: null,
  location: null,
  note: null,
  carrier: null,
  trackingNo: null,
  tracking: null,
  at: '2026-11-28T04:40:51.028Z',
  ...e,
});

describe('the member’s order timeline', () => {
  it('shows a store pickup once: the parcel’s step and the status it brought are one step, the note said once', () => {
    const steps = timelineSteps([
      event({ kind: 'status', status: 'shipped', at: '2026-11-27T02:00:00Z' }),
      event({ kind: 'shipment', shipmentEvent: 'delivered', note: '買家已到店取貨' }),
      event({ kind: 'status', status: 'delivered', note: '買家已到店取貨', at: '2026-11-28T04:40:51.300Z' }),
      event({
        kind: 'status',
        status: 'delivered',
        note: '會員申請退貨（TW20261128000011-R1）',
        at: '2026-11-28T04:40:51.478Z',
      }),
    ]);
    expect(steps.map((s) => [s.title, s.note])).toEqual([
      ['已出貨', null],
      ['已送達', '買家已到店取貨'],
      ['已送達', '會員申請退貨（TW20261128000011-R1）'],
    ]);
  });

  it('keeps two deliveries apart when they are minutes apart', () => {
    const steps = timelineSteps([
      event({ kind: 'shipment', shipmentEvent: 'delivered' }),
      event({ kind: 'status', status: 'delivered', note: '包裹已送達', at: '2026-11-28T04:45:00Z' }),
    ]);
    expect(steps).toHaveLength(2);
  });
});
