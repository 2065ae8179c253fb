import { describe, expect, it } from 'vitest';
import { orderTimeline } from '../../../../src/features/admin/orders/order-timeline.ts';

// An audit entry whose details cannot be read still appears on the timeline, by its action.
describe('the order timeline', () => {
  const at = new Date('2026-11-20T10:00:00Z');
  const timeline = (afterJson: string | null) =>
    orderTimeline(
      {
        order: { createdAt: at, totalAmount: 1299, stripePaymentIntentId: 'pi_1' },
        customerName: 'Amara Osei',
        emails: [],
        audit: [{ id: 1, action: 'delivered', afterJson, createdAt: new Date(at.getTime() + 1000), actorName: 'Olive Page' }],
      },
      (d) => d.toISOString(),
    );

  it.each([
    ['details written as JSON', '{"deliveredAt":"2026-11-21"}'],
    ['no details', null],
    ['details recorded as null', 'null'],
    ['unreadable details', '{"deliveredAt":'],
  ])('shows an operator action with %s', (_case, afterJson) => {
    expect(timeline(afterJson)[1]).toEqual({
      at: new Date(at.getTime() + 1000),
      title: 'Marked delivered',
      detail: null,
      who: 'Olive Page',
    });
  });

  it("says a parent's cancel of their own pre-order was theirs, and that its copies went back to the pre-orders", () => {
    const entry = (after: object) =>
      orderTimeline(
        {
          order: { createdAt: at, totalAmount: 1299, stripePaymentIntentId: 'pi_1' },
          customerName: 'Amara Osei',
          emails: [],
          audit: [{ id: 1, action: 'canceled', afterJson: JSON.stringify(after), createdAt: at, actorName: 'Amara Osei' }],
        },
        (d) => d.toISOString(),
      )[1];
    const refund = { amount: '12.99', reason: 'Order canceled' };
    expect(entry({ refund, by: 'parent', restocked: [], unpromised: [{ bookId: 3, quantity: 1 }] })).toMatchObject({
      title: 'Pre-order canceled by the parent, refunded $12.99',
      detail: 'Pre-ordered copies given back',
      who: 'Amara Osei',
    });
    expect(entry({ refund, by: 'operator', restocked: [{ bookId: 3, quantity: 1 }], unpromised: [] })).toMatchObject({
      title: 'Canceled and refunded $12.99',
      detail: 'Stock returned',
    });
  });
});
