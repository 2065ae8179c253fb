import { describe, expect, it } from 'vitest';
import { MAX_COPIES_PER_TITLE, PER_TITLE_LIMIT_TEXT } from '../../../src/features/catalog/per-title-limit.ts';
import { offerFor, shipsTogetherSentence } from '../../../src/features/catalog/preorder.rules.ts';
import {
  buyAgainLine,
  decideQuantity,
  lineSupply,
  mergedQuantity,
  plusLimitReason,
  refusalMessage,
  shipsTogetherNote,
  supplyLimit,
  supplyOf,
} from '../../../src/features/cart/cart.rules.ts';

// A pre-order's line draws on the copies left under the title's limit, not on its stock, and
// says so when it is refused: the cart's pure rules, given what the title offers.

const TODAY = '2026-11-28';
const title = (facts: Partial<Parameters<typeof offerFor>[0]> = {}) => ({
  publishedOn: '2027-03-02',
  inStock: 0,
  takesPreorders: true,
  preorderCopiesLeft: 5 as number | null,
  ...facts,
});

describe('what a line may draw on, from the offer', () => {
  it('a forthcoming title taking pre-orders: the copies left under its limit, or no limit', () => {
    expect(supplyOf(offerFor(title(), TODAY))).toEqual({ copies: 5, preorder: true });
    expect(supplyOf(offerFor(title({ preorderCopiesLeft: null }), TODAY))).toEqual({ copies: Infinity, preorder: true });
    // Copies on the shelf do not count: the title is not out yet.
    expect(supplyOf(offerFor(title({ inStock: 40, preorderCopiesLeft: 2 }), TODAY))).toEqual({ copies: 2, preorder: true });
  });

  it('every pre-order copy taken: nothing, and still a pre-order', () => {
    expect(supplyOf(offerFor(title({ preorderCopiesLeft: 0 }), TODAY))).toEqual({ copies: 0, preorder: true });
  });

  it('a title that is out, or takes no pre-orders: its copies for sale', () => {
    expect(supplyOf(offerFor(title({ publishedOn: TODAY, inStock: 7 }), TODAY))).toEqual({ copies: 7, preorder: false });
    expect(supplyOf(offerFor(title({ takesPreorders: false, inStock: 3 }), TODAY))).toEqual({ copies: 3, preorder: false });
    expect(supplyOf(offerFor(title({ takesPreorders: false }), TODAY))).toEqual({ copies: 0, preorder: false });
  });

  it('a cart line says which: its book’s pre-order copies left, or its copies for sale', () => {
    const book = { inStock: 4, preorderCopiesLeft: 9 };
    expect(lineSupply({ preorder: true, book })).toEqual({ copies: 9, preorder: true });
    expect(lineSupply({ preorder: true, book: { ...book, preorderCopiesLeft: null } })).toEqual({ copies: Infinity, preorder: true });
    expect(lineSupply({ preorder: false, book })).toEqual({ copies: 4, preorder: false });
  });
});

describe('a pre-order line’s quantity', () => {
  const left = (copies: number) => ({ copies, preorder: true });

  it('is held to the smaller of the per-title cap and the copies left', () => {
    expect(supplyLimit(left(3))).toBe(3);
    expect(supplyLimit(left(Infinity))).toBe(MAX_COPIES_PER_TITLE);
    expect(decideQuantity(3, left(3))).toEqual({ kind: 'set', quantity: 3 });
    expect(decideQuantity(MAX_COPIES_PER_TITLE, left(Infinity))).toEqual({ kind: 'set', quantity: MAX_COPIES_PER_TITLE });
    expect(mergedQuantity(2, 6, left(5))).toBe(5);
  });

  it('past the copies left is refused in words about pre-orders', () => {
    const decision = decideQuantity(4, left(3));
    expect(decision).toEqual({ kind: 'refuse', reason: 'not-enough', available: 3, preorder: true });
    expect(refusalMessage(decision as Extract<typeof decision, { kind: 'refuse' }>, 'The Snow Fox')).toBe(
      'Only 3 pre-order copies of "The Snow Fox" are left.',
    );
    const one = decideQuantity(2, left(1));
    expect(refusalMessage(one as Extract<typeof one, { kind: 'refuse' }>, 'The Snow Fox')).toBe(
      'Only 1 pre-order copy of "The Snow Fox" is left.',
    );
  });

  it('with every copy taken is refused like a sold-out book, about pre-orders', () => {
    const decision = decideQuantity(1, left(0));
    expect(decision).toEqual({ kind: 'refuse', reason: 'sold-out', available: 0, preorder: true });
    expect(refusalMessage(decision as Extract<typeof decision, { kind: 'refuse' }>, 'The Snow Fox')).toBe(
      'Sorry, every pre-order copy of "The Snow Fox" has been taken.',
    );
  });

  it('past the per-title cap says the cap, whatever the line draws on', () => {
    const decision = decideQuantity(MAX_COPIES_PER_TITLE + 1, left(Infinity));
    expect(decision).toMatchObject({ kind: 'refuse', reason: 'per-title-cap' });
    expect(refusalMessage(decision as Extract<typeof decision, { kind: 'refuse' }>, 'The Snow Fox')).toBe(PER_TITLE_LIMIT_TEXT);
  });

  it('an ordinary line keeps its words', () => {
    const decision = decideQuantity(4, 3);
    expect(decision).toEqual({ kind: 'refuse', reason: 'not-enough', available: 3 });
    expect(refusalMessage(decision as Extract<typeof decision, { kind: 'refuse' }>, 'Owl Moon')).toBe(
      'Only 3 copies of "Owl Moon" are available.',
    );
  });

  it('plus stops at the copies left and says why', () => {
    expect(plusLimitReason(2, left(3))).toBeNull();
    expect(plusLimitReason(3, left(3))).toBe('Only 3 pre-order copies left');
    expect(plusLimitReason(1, left(1))).toBe('Only 1 pre-order copy left');
    expect(plusLimitReason(MAX_COPIES_PER_TITLE, left(Infinity))).toBe(PER_TITLE_LIMIT_TEXT);
    expect(plusLimitReason(3, 3)).toBe('Only 3 in stock');
  });

  it('buy again adds a pre-order title up to the copies left, and skips one with none', () => {
    expect(buyAgainLine({ title: 'The Snow Fox', supply: left(2) }, 'The Snow Fox', 3, 0)).toEqual({
      add: 2,
      shortfall: { title: 'The Snow Fox', reason: 'not-enough', available: 2 },
    });
    expect(buyAgainLine({ title: 'The Snow Fox', supply: left(0) }, 'The Snow Fox', 1, 0)).toEqual({
      add: 0,
      shortfall: { title: 'The Snow Fox', reason: 'gone' },
    });
  });
});

describe('what the cart says before payment', () => {
  const line = (preorder: boolean, outOn: string | null) => ({ preorder, outOn });

  it('nothing for a cart without a pre-order', () => {
    expect(shipsTogetherNote([])).toBeNull();
    expect(shipsTogetherNote([line(false, null)])).toBeNull();
  });

  it('that everything ships together on the latest of its pre-orders’ dates', () => {
    expect(shipsTogetherNote([line(false, null), line(true, '2027-03-02'), line(true, '2027-05-11'), line(true, '2027-01-04')])).toBe(
      shipsTogetherSentence('2027-05-11'),
    );
    expect(shipsTogetherSentence('2027-05-11')).toContain('May 11, 2027');
  });
});
