import { describe, expect, it } from 'vitest';
import { displayStatus, statusBadge, statusLabel } from '../../../src/features/orders/order-status.ts';

// The words a parent and an operator read for an order's status: the shop's own, for every
// display status and whatever was given back, never the payment provider's.
const nothingBack = { totalCents: 4646, refundedCents: 0 };
const partBack = { totalCents: 4646, refundedCents: 250 };
const allBack = { totalCents: 4646, refundedCents: 4646 };

const PLAIN = [
  'Paid',
  'Processing',
  'Shipped',
  'Delivered',
  'Canceled',
  'Refunded',
  'Partly refunded',
  'Waiting for payment',
  'Pre-ordered',
  'Payment failed',
];

// [display status, nothing given back, part given back, all given back]
const TABLE: Array<[string, string, string, string]> = [
  ['succeeded', 'Paid', 'Partly refunded', 'Refunded'],
  ['preordered', 'Pre-ordered', 'Pre-ordered', 'Refunded'],
  ['shipped', 'Shipped', 'Shipped', 'Refunded'],
  ['delivered', 'Delivered', 'Delivered', 'Refunded'],
  ['canceled', 'Canceled', 'Canceled', 'Canceled'],
  ['processing', 'Processing', 'Processing', 'Processing'],
  ['requires_payment_method', 'Waiting for payment', 'Waiting for payment', 'Waiting for payment'],
  ['requires_confirmation', 'Waiting for payment', 'Waiting for payment', 'Waiting for payment'],
  ['requires_action', 'Waiting for payment', 'Waiting for payment', 'Waiting for payment'],
  ['pending', 'Waiting for payment', 'Waiting for payment', 'Waiting for payment'],
  ['failed', 'Payment failed', 'Payment failed', 'Payment failed'],
];

describe('statusLabel', () => {
  it.each(TABLE)('reads %s as "%s", "%s" with part given back, "%s" with all of it', (status, none, part, all) => {
    expect(statusLabel(status, nothingBack)).toBe(none);
    expect(statusLabel(status, partBack)).toBe(part);
    expect(statusLabel(status, allBack)).toBe(all);
  });

  it('reads a partly refunded paid order as partly refunded down to a single cent, and refunded from the last cent', () => {
    expect(statusLabel('succeeded', { totalCents: 4646, refundedCents: 1 })).toBe('Partly refunded');
    expect(statusLabel('succeeded', { totalCents: 4646, refundedCents: 4645 })).toBe('Partly refunded');
    expect(statusLabel('succeeded', { totalCents: 4646, refundedCents: 4646 })).toBe('Refunded');
  });

  it('never shows a provider word, whatever the order, the provider or the refund says', () => {
    const orderStatuses = ['succeeded', 'preordered', 'shipped', 'delivered', 'canceled', 'pending', 'archived'];
    const providerStatuses = [
      undefined,
      'no_payment_intent',
      'stripe_error',
      'succeeded',
      'processing',
      'requires_payment_method',
      'requires_confirmation',
      'requires_action',
      'requires_capture',
      'canceled',
      'failed',
    ];
    for (const order of orderStatuses) {
      for (const provider of providerStatuses) {
        for (const money of [nothingBack, partBack, allBack]) {
          const label = statusLabel(displayStatus(order, provider), money);
          const seen = `${order} / ${provider} / ${money.refundedCents}`;
          expect(PLAIN, seen).toContain(label);
          expect(label, seen).not.toMatch(/succeeded|requires|_|pending|intent|stripe/i);
        }
      }
    }
  });
});

describe('statusBadge', () => {
  it('keeps the spec’s colour of the status under the plain label', () => {
    expect(statusBadge('succeeded', nothingBack)).toEqual({ label: 'Paid', tone: 'green' });
    expect(statusBadge('succeeded', partBack)).toEqual({ label: 'Partly refunded', tone: 'green' });
    expect(statusBadge('delivered', nothingBack)).toEqual({ label: 'Delivered', tone: 'green' });
    expect(statusBadge('processing', nothingBack)).toEqual({ label: 'Processing', tone: 'blue' });
    expect(statusBadge('shipped', nothingBack)).toEqual({ label: 'Shipped', tone: 'blue' });
    expect(statusBadge('preordered', nothingBack)).toEqual({ label: 'Pre-ordered', tone: 'blue' });
    expect(statusBadge('requires_action', nothingBack)).toEqual({ label: 'Waiting for payment', tone: 'yellow' });
    expect(statusBadge('canceled', allBack)).toEqual({ label: 'Canceled', tone: 'red' });
    expect(statusBadge('failed', nothingBack)).toEqual({ label: 'Payment failed', tone: 'red' });
    expect(statusBadge('pending', nothingBack)).toEqual({ label: 'Waiting for payment', tone: 'grey' });
  });
});
