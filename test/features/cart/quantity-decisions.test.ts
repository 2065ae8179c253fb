import { describe, expect, it } from 'vitest';
import { MAX_COPIES_PER_TITLE } from '../../../src/features/catalog/per-title-limit.ts';
import { decideQuantity, mergedQuantity } from '../../../src/features/cart/cart.rules.ts';

// The edges of the two quantity rules (docs/architecture.md, "Carts"): a line holds at most the copies in
// stock and at most 50 of one title; below one copy the line goes.
describe('decideQuantity at its edges', () => {
  it('removes the line for zero or a negative quantity, even when the book is sold out', () => {
    expect(decideQuantity(0, 0)).toEqual({ kind: 'remove' });
    expect(decideQuantity(-3, 10)).toEqual({ kind: 'remove' });
  });

  it('sets exactly the copies in stock, and refuses one more with what is left', () => {
    expect(decideQuantity(7, 7)).toEqual({ kind: 'set', quantity: 7 });
    expect(decideQuantity(8, 7)).toEqual({ kind: 'refuse', reason: 'not-enough', available: 7 });
    expect(decideQuantity(1, 1)).toEqual({ kind: 'set', quantity: 1 });
  });

  it('refuses any quantity of a sold-out book as sold out, not as too many', () => {
    expect(decideQuantity(1, 0)).toEqual({ kind: 'refuse', reason: 'sold-out', available: 0 });
    expect(decideQuantity(60, -1)).toEqual({ kind: 'refuse', reason: 'sold-out', available: 0 });
  });

  it('names the per-title cap only when stock is not what stops the line', () => {
    expect(decideQuantity(MAX_COPIES_PER_TITLE, MAX_COPIES_PER_TITLE)).toEqual({ kind: 'set', quantity: 50 });
    expect(decideQuantity(MAX_COPIES_PER_TITLE + 1, MAX_COPIES_PER_TITLE)).toEqual({
      kind: 'refuse',
      reason: 'per-title-cap',
      available: 50,
    });
    expect(decideQuantity(MAX_COPIES_PER_TITLE + 1, MAX_COPIES_PER_TITLE - 1)).toEqual({
      kind: 'refuse',
      reason: 'not-enough',
      available: 49,
    });
  });
});

describe('mergedQuantity at its edges', () => {
  it('keeps the larger of the two quantities: the same book put in the cart again is wanted once', () => {
    expect(mergedQuantity(2, 3, 10)).toBe(3);
    expect(mergedQuantity(3, 2, 10)).toBe(3);
    expect(mergedQuantity(1, 1, 10)).toBe(1);
    expect(mergedQuantity(0, 4, 4)).toBe(4);
  });

  it('caps it at the stock, at 50 copies, and at none for a sold-out book', () => {
    expect(mergedQuantity(4, 8, 6)).toBe(6);
    expect(mergedQuantity(49, 60, 1000)).toBe(MAX_COPIES_PER_TITLE);
    expect(mergedQuantity(2, 2, 0)).toBe(0);
  });
});
