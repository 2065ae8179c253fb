import { describe, expect, it } from 'vitest';
import { displayStatus } from '../../../src/features/orders/order-status.ts';
import { parentCancelRefusal } from '../../../src/features/orders/preorder-cancel.rules.ts';
import { assertTransition } from '../../../src/features/orders/order-transitions.ts';
import { trackingUrl } from '../../../src/features/orders/carriers.ts';

describe('displayStatus', () => {
  it("lets the provider's status override a paid order's own", () => {
    expect(displayStatus('succeeded', 'processing')).toBe('processing');
    expect(displayStatus('pending', 'succeeded')).toBe('succeeded');
  });

  it('keeps the order status when the provider has no word (no payment intent, unreachable)', () => {
    expect(displayStatus('succeeded', 'no_payment_intent')).toBe('succeeded');
    expect(displayStatus('succeeded', 'stripe_error')).toBe('succeeded');
    expect(displayStatus('succeeded')).toBe('succeeded');
  });

  it("lets shipped, delivered and canceled win over the provider's succeeded", () => {
    for (const status of ['shipped', 'delivered', 'canceled']) expect(displayStatus(status, 'succeeded')).toBe(status);
  });
});

describe('order transitions', () => {
  it('allows succeeded → shipped → delivered and succeeded → canceled only', () => {
    expect(() => assertTransition('succeeded', 'shipped')).not.toThrow();
    expect(() => assertTransition('shipped', 'delivered')).not.toThrow();
    expect(() => assertTransition('succeeded', 'canceled')).not.toThrow();
    for (const [from, to] of [
      ['shipped', 'canceled'],
      ['delivered', 'shipped'],
      ['canceled', 'shipped'],
      ['succeeded', 'delivered'],
      ['pending', 'shipped'],
    ] as const) {
      expect(() => assertTransition(from, to), `${from} → ${to}`).toThrow(expect.objectContaining({ status: 409 }));
    }
  });
});

describe('trackingUrl', () => {
  it("links each carrier's tracking page with the number encoded, and nothing for Other", () => {
    expect(trackingUrl('USPS', '9400 1000')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000');
    expect(trackingUrl('FedEx', '1234')).toBe('https://www.fedex.com/fedextrack/?trknbr=1234');
    expect(trackingUrl('DHL', '55')).toContain('tracking-id=55');
    expect(trackingUrl('Other', 'X1')).toBeNull();
    expect(trackingUrl(null, null)).toBeNull();
  });
});

describe('a parent’s cancel', () => {
  it('is open to a pre-order alone, and says why not to any other order', () => {
    expect(parentCancelRefusal('preordered')).toBeNull();
    expect(parentCancelRefusal('succeeded')).toBe(
      'This order has already been packed for shipping, so it can no longer be canceled here. Please contact us.',
    );
    expect(parentCancelRefusal('shipped')).toContain('already shipped');
    expect(parentCancelRefusal('delivered')).toContain('already been delivered');
    expect(parentCancelRefusal('canceled')).toBe('This order has already been canceled.');
    expect(parentCancelRefusal('processing')).toContain('not a pre-order');
  });
});
