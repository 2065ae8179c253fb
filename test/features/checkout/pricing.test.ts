import { describe, expect, it } from 'vitest';
import { orderTotals, shippingCents, taxCents, taxRateBps } from '../../../src/features/pricing/pricing.ts';
import { lookupZip } from '../../../src/features/pricing/zip.ts';

describe('shipping', () => {
  it.each([
    [24_99, 7_99],
    [25_00, 4_99],
    [49_99, 4_99],
    [50_00, 0],
    [120_00, 0],
    [1, 7_99],
  ])('a subtotal of %i cents ships for %i cents', (subtotal, shipping) => {
    expect(shippingCents(subtotal)).toBe(shipping);
  });
});

describe('tax by the state of the ZIP code', () => {
  it.each([
    ['98101', 'WA', 920],
    ['70112', 'LA', 950],
    ['94103', 'CA', 875],
    ['78701', 'TX', 820],
    ['10001', 'NY', 804],
    ['33101', 'FL', 700],
    ['19901', 'DE', 0],
    ['59601', 'MT', 0],
    ['03301', 'NH', 0],
    ['97205', 'OR', 0],
    ['60601', 'IL', 650],
  ])('ZIP %s is in %s, taxed at %i basis points', (zip, state, bps) => {
    expect(lookupZip(zip)?.state).toBe(state);
    expect(taxRateBps(state)).toBe(bps);
  });

  it('uses 6.5% for a ZIP code not in the database', () => {
    expect(lookupZip('00000')).toBeUndefined();
    expect(taxRateBps(null)).toBe(650);
    expect(taxCents(100_00, null)).toBe(6_50);
  });

  it('taxes the subtotal only, rounding half a cent up', () => {
    // 6.5% of $1.00 is exactly 6.5 cents: up to 7, where truncating or rounding half to even gives 6.
    expect(taxCents(1_00, null)).toBe(7);
    expect(taxCents(3_00, null)).toBe(20); // 19.5
    expect(taxCents(99, null)).toBe(6); // 6.435, under half a cent: down
    expect(taxCents(16_99, 'CA')).toBe(149); // 148.6625
    expect(taxCents(10_00, 'TX')).toBe(82);
    expect(taxCents(1_00, 'NY')).toBe(8); // 8.04
  });
});

describe('order totals', () => {
  it('adds shipping, $2.50 handling and tax to the subtotal', () => {
    expect(orderTotals(24_99, 'TX')).toEqual({
      subtotal: 24_99,
      discount: 0,
      shipping: 7_99,
      handling: 2_50,
      tax: 205,
      total: 24_99 + 7_99 + 2_50 + 205,
    });
    expect(orderTotals(50_00, 'OR')).toEqual({ subtotal: 50_00, discount: 0, shipping: 0, handling: 2_50, tax: 0, total: 52_50 });
  });
});
