import { describe, expect, it } from 'vitest';
import { lineLimit, MAX_COPIES_PER_TITLE } from '../../../src/features/catalog/per-title-limit.ts';
import { decideQuantity, mergedQuantity, refusalMessage } from '../../../src/features/cart/cart.rules.ts';

describe('cart quantity rules', () => {
  it('allows at most 50 copies of one title, and never more than the stock', () => {
    expect(MAX_COPIES_PER_TITLE).toBe(50);
    expect(lineLimit(500)).toBe(50);
    expect(lineLimit(7)).toBe(7);
    expect(lineLimit(-2)).toBe(0);
  });

  it('sets a quantity up to the limit and refuses one past it with the reason', () => {
    expect(decideQuantity(50, 500)).toEqual({ kind: 'set', quantity: 50 });
    expect(decideQuantity(51, 500)).toEqual({ kind: 'refuse', reason: 'per-title-cap', available: 50 });
    expect(decideQuantity(8, 7)).toEqual({ kind: 'refuse', reason: 'not-enough', available: 7 });
    expect(decideQuantity(60, 40)).toEqual({ kind: 'refuse', reason: 'not-enough', available: 40 });
    expect(decideQuantity(1, 0)).toEqual({ kind: 'refuse', reason: 'sold-out', available: 0 });
    expect(decideQuantity(0, 5)).toEqual({ kind: 'remove' });
  });

  it('caps a merged line at the same limit', () => {
    expect(mergedQuantity(30, 60, 500)).toBe(50);
    expect(mergedQuantity(3, 6, 4)).toBe(4);
  });

  it('says the per-title limit in words a parent can read', () => {
    expect(refusalMessage({ kind: 'refuse', reason: 'per-title-cap', available: 50 }, 'Owl Moon')).toBe(
      'Up to 50 copies of each book per order.',
    );
  });
});
