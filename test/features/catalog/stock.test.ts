import { describe, expect, it } from 'vitest';
import { stockBadge } from '../../../src/features/catalog/stock.ts';
import { cartBadgeText } from '../../../src/features/cart/badge.ts';

describe('stock badge thresholds', () => {
  it.each([
    [0, 'Coming Soon', 'out'],
    [1, 'Only 1 left', 'low'],
    [10, 'Only 10 left', 'low'],
    [11, 'In Stock', 'in-stock'],
    [250, 'In Stock', 'in-stock'],
  ])('%i copies reads %s', (copies, label, tone) => {
    expect(stockBadge(copies)).toEqual({ label, tone });
  });
});

describe('cart badge', () => {
  it('shows the count up to 99 and 99+ above', () => {
    expect(cartBadgeText(0)).toBe('0');
    expect(cartBadgeText(99)).toBe('99');
    expect(cartBadgeText(100)).toBe('99+');
  });
});
