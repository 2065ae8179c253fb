import { describe, expect, it } from 'vitest';
import { discountCents } from '../../../src/features/pricing/discount.ts';
import { orderTotals } from '../../../src/features/pricing/pricing.ts';

// Each kind of code at the shipping tiers ($7.99 under $25, $4.99 from $25, free from
// $50): the tiers and the tax follow the subtotal after the discount.
describe('a discount at the pricing boundaries', () => {
  it('a 10% code that brings $52.00 under $50 makes shipping $4.99 again', () => {
    const offer = { kind: 'percentage', percent: 10, amount: 0 } as const;
    expect(orderTotals(52_00, 'OR')).toMatchObject({ shipping: 0, discount: 0 });
    expect(orderTotals(52_00, 'OR', offer)).toEqual({
      subtotal: 52_00,
      discount: 5_20,
      shipping: 4_99,
      handling: 2_50,
      tax: 0,
      total: 46_80 + 4_99 + 2_50,
    });
  });

  it('a $5.00 code that brings $28.00 under $25 makes shipping $7.99', () => {
    const totals = orderTotals(28_00, 'OR', { kind: 'fixed', percent: 0, amount: 5_00 });
    expect(totals).toMatchObject({ discount: 5_00, shipping: 7_99, total: 23_00 + 7_99 + 2_50 });
  });

  it('a free-shipping code takes the shipping off and leaves the subtotal', () => {
    expect(orderTotals(20_00, 'OR', { kind: 'free_shipping', percent: 0, amount: 0 })).toEqual({
      subtotal: 20_00,
      discount: 0,
      shipping: 0,
      handling: 2_50,
      tax: 0,
      total: 22_50,
    });
  });

  it('a fixed amount above the subtotal brings it to zero, never below', () => {
    const totals = orderTotals(12_00, 'TX', { kind: 'fixed', percent: 0, amount: 20_00 });
    expect(totals).toEqual({ subtotal: 12_00, discount: 12_00, shipping: 7_99, handling: 2_50, tax: 0, total: 10_49 });
  });

  it('taxes the discounted subtotal, to the cent', () => {
    // CA 8.75% of $45.00 - 15% ($38.25) is 334.6875 cents: 335. On the whole $45.00 it would be 394.
    const totals = orderTotals(45_00, 'CA', { kind: 'percentage', percent: 15, amount: 0 });
    expect(totals).toMatchObject({ discount: 6_75, shipping: 4_99, tax: 3_35, total: 38_25 + 4_99 + 2_50 + 3_35 });
  });

  it('rounds a percentage to the nearest cent, half up', () => {
    expect(discountCents(16_99, { kind: 'percentage', percent: 10, amount: 0 })).toBe(1_70); // 169.9
    expect(discountCents(1_05, { kind: 'percentage', percent: 50, amount: 0 })).toBe(53); // 52.5
    expect(discountCents(10_00, { kind: 'percentage', percent: 100, amount: 0 })).toBe(10_00);
  });
});
