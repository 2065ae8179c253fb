import { describe, expect, it } from 'vitest';
import { displayStatus } from '../../../src/features/orders/order-status.ts';

// docs/architecture.md, "Order status": the provider's status wins unless it is no_payment_intent or stripe_error;
// shipped, delivered and canceled (what the shop did after payment) win over it; anything
// outside the known statuses reads as pending.
describe('displayStatus at its edges', () => {
  it('shows each known status the provider reports for an order that is only paid', () => {
    for (const status of [
      'succeeded',
      'processing',
      'requires_payment_method',
      'requires_confirmation',
      'requires_action',
      'canceled',
      'failed',
    ]) {
      expect(displayStatus('pending', status)).toBe(status);
    }
  });

  it("keeps the shop's shipped, delivered or canceled whatever the provider says", () => {
    expect(displayStatus('shipped', 'processing')).toBe('shipped');
    expect(displayStatus('delivered', 'requires_action')).toBe('delivered');
    expect(displayStatus('canceled', 'succeeded')).toBe('canceled');
  });

  it('falls back to the order status for no provider status at all: none, null or empty', () => {
    expect(displayStatus('processing', null)).toBe('processing');
    expect(displayStatus('processing', '')).toBe('processing');
    expect(displayStatus('failed', undefined)).toBe('failed');
  });

  it('reads a status outside the known list as pending, from either side', () => {
    expect(displayStatus('succeeded', 'partially_funded')).toBe('pending');
    expect(displayStatus('archived', null)).toBe('pending');
    expect(displayStatus('archived', 'stripe_error')).toBe('pending');
  });
});
