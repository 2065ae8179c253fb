import { describe, expect, it } from 'vitest';
import { estimatedDelivery } from '../../../src/features/checkout/order-completion.ts';

// Orders ship within 1-2 business days (docs/architecture.md, "Checkout and orders") and arrive a few days later: the
// estimate is five business days after the order, counted in UTC, weekends skipped.
describe('estimatedDelivery', () => {
  it.each([
    ['Monday', '2026-11-23T10:00:00Z', '2026-11-30'],
    ['Tuesday', '2026-11-24T10:00:00Z', '2026-12-01'],
    ['Friday', '2026-11-27T10:00:00Z', '2026-12-04'],
    ['Saturday', '2026-11-28T10:00:00Z', '2026-12-04'],
    ['Sunday', '2026-11-29T10:00:00Z', '2026-12-04'],
  ])('an order placed on a %s (%s) is expected on %s', (_day, placed, expected) => {
    expect(estimatedDelivery(new Date(placed))).toBe(expected);
  });

  it('counts in UTC: just before midnight UTC is still that day', () => {
    expect(estimatedDelivery(new Date('2026-11-27T23:59:59Z'))).toBe('2026-12-04');
    expect(estimatedDelivery(new Date('2026-11-28T00:00:00Z'))).toBe('2026-12-04');
  });

  it('crosses a month and a year end', () => {
    expect(estimatedDelivery(new Date('2026-12-28T09:00:00Z'))).toBe('2027-01-04');
  });

  it('never lands on a weekend and leaves the date it was given unchanged', () => {
    const from = new Date('2026-11-25T12:00:00Z');
    const before = from.getTime();
    for (let i = 0; i < 14; i++) {
      const day = new Date(`${estimatedDelivery(new Date(before + i * 86_400_000))}T00:00:00Z`).getUTCDay();
      expect([0, 6]).not.toContain(day);
    }
    estimatedDelivery(from);
    expect(from.getTime()).toBe(before);
  });
});
