import { describe, expect, it } from 'vitest';
import { availabilityOf } from '../../../src/features/catalog/book.seo.ts';
import { offerQuantityChoices } from '../../../src/features/catalog/per-title-limit.ts';
import {
  copiesForSale,
  isForthcoming,
  mayShip,
  offerFor,
  offerWords,
  outOnLabel,
  preorderCopiesLeft,
  preorderCopiesNote,
  shipsOn,
  type Offer,
  type TitleFacts,
} from '../../../src/features/catalog/preorder.rules.ts';
import { offerBadge } from '../../../src/features/catalog/stock.ts';

// What a title's page and card offer on the shop's day, for every combination of its
// publication date, its copies, the operator's pre-order switch and the pre-order limit.

const TODAY = '2026-11-28';
const DATES = { past: '2026-03-02', today: TODAY, future: '2027-03-02' } as const;
const STOCK = { none: 0, some: 7 } as const;
/** Pre-order copies left: no limit, some left under it, the limit reached. */
const LIMIT = { none: null, left: 3, reached: 0 } as const;

type Day = keyof typeof DATES;
type Stock = keyof typeof STOCK;
type Limit = keyof typeof LIMIT;

function title(date: Day, stock: Stock, takesPreorders: boolean, limit: Limit): TitleFacts {
  return { publishedOn: DATES[date], inStock: STOCK[stock], takesPreorders, preorderCopiesLeft: LIMIT[limit] };
}

const buy = { kind: 'buy', copies: 7 };
const comingSoon = { kind: 'coming-soon' };
const preorder = (copies: number) => ({ kind: 'preorder', copies, outOn: DATES.future });
const full = { kind: 'preorders-full', outOn: DATES.future };

// Written out, one row each: a title is forthcoming only after today; the switch matters only
// then, and the shelf does not (a pre-order is served on publication day); a title that is out,
// or takes no pre-orders, sells its copies or shows Coming Soon, whatever its limit says.
const TABLE: Array<[Day, Stock, boolean, Limit, object]> = [
  ['past', 'none', false, 'none', comingSoon],
  ['past', 'none', false, 'left', comingSoon],
  ['past', 'none', false, 'reached', comingSoon],
  ['past', 'none', true, 'none', comingSoon],
  ['past', 'none', true, 'left', comingSoon],
  ['past', 'none', true, 'reached', comingSoon],
  ['past', 'some', false, 'none', buy],
  ['past', 'some', false, 'left', buy],
  ['past', 'some', false, 'reached', buy],
  ['past', 'some', true, 'none', buy],
  ['past', 'some', true, 'left', buy],
  ['past', 'some', true, 'reached', buy],
  ['today', 'none', false, 'none', comingSoon],
  ['today', 'none', false, 'left', comingSoon],
  ['today', 'none', false, 'reached', comingSoon],
  ['today', 'none', true, 'none', comingSoon],
  ['today', 'none', true, 'left', comingSoon],
  ['today', 'none', true, 'reached', comingSoon],
  ['today', 'some', false, 'none', buy],
  ['today', 'some', false, 'left', buy],
  ['today', 'some', false, 'reached', buy],
  ['today', 'some', true, 'none', buy],
  ['today', 'some', true, 'left', buy],
  ['today', 'some', true, 'reached', buy],
  ['future', 'none', false, 'none', comingSoon],
  ['future', 'none', false, 'left', comingSoon],
  ['future', 'none', false, 'reached', comingSoon],
  ['future', 'none', true, 'none', preorder(Infinity)],
  ['future', 'none', true, 'left', preorder(3)],
  ['future', 'none', true, 'reached', full],
  ['future', 'some', false, 'none', buy],
  ['future', 'some', false, 'left', buy],
  ['future', 'some', false, 'reached', buy],
  ['future', 'some', true, 'none', preorder(Infinity)],
  ['future', 'some', true, 'left', preorder(3)],
  ['future', 'some', true, 'reached', full],
];

describe('offerFor: what a title offers on the shop day', () => {
  it('the table covers every combination of date, stock, switch and limit once', () => {
    const keys = new Set(TABLE.map(([date, stock, on, limit]) => `${date}/${stock}/${on}/${limit}`));
    expect(keys.size).toBe(3 * 2 * 2 * 3);
    expect(TABLE).toHaveLength(keys.size);
  });

  it.each(TABLE)('published %s, stock %s, pre-orders on: %s, limit %s', (date, stock, on, limit, offer) => {
    expect(offerFor(title(date, stock, on, limit), TODAY)).toEqual(offer);
  });

  it('turns at the publication day: the day before it takes pre-orders, on the day it sells its copies', () => {
    const facts = { publishedOn: '2027-03-02', inStock: 4, takesPreorders: true, preorderCopiesLeft: 3 };
    expect(offerFor(facts, '2027-03-01').kind).toBe('preorder');
    expect(offerFor(facts, '2027-03-02')).toEqual({ kind: 'buy', copies: 4 });
  });

  it('a forthcoming title is one published after the shop day, not on it', () => {
    expect(isForthcoming('2027-03-02', '2027-03-01')).toBe(true);
    expect(isForthcoming('2027-03-02', '2027-03-02')).toBe(false);
    expect(isForthcoming('2027-03-02', '2027-03-03')).toBe(false);
  });
});

describe('the counts a title offer is made from', () => {
  it('pre-order copies left: the limit less those promised, never below none; no limit is null', () => {
    expect(preorderCopiesLeft({ preorderLimit: null, preordered: 40 })).toBeNull();
    expect(preorderCopiesLeft({ preorderLimit: 100, preordered: 97 })).toBe(3);
    expect(preorderCopiesLeft({ preorderLimit: 100, preordered: 100 })).toBe(0);
    // A limit lowered under what parents already hold leaves nothing, not a debt.
    expect(preorderCopiesLeft({ preorderLimit: 10, preordered: 12 })).toBe(0);
  });

  it('copies for sale: the shelf less the copies still owed to pre-orders', () => {
    expect(copiesForSale({ inStock: 30, preordered: 0 })).toBe(30);
    expect(copiesForSale({ inStock: 30, preordered: 12 })).toBe(18);
    expect(copiesForSale({ inStock: 5, preordered: 12 })).toBe(0);
  });
});

describe('what the pages show for an offer', () => {
  const offers: Record<string, Offer> = {
    buy: { kind: 'buy', copies: 7 },
    buyLast: { kind: 'buy', copies: 2 },
    preorderUnlimited: { kind: 'preorder', copies: Infinity, outOn: '2027-03-02' },
    preorderFew: { kind: 'preorder', copies: 3, outOn: '2027-03-02' },
    preorderLast: { kind: 'preorder', copies: 1, outOn: '2027-03-02' },
    full: { kind: 'preorders-full', outOn: '2027-03-02' },
    comingSoon: { kind: 'coming-soon' },
  };

  it.each([
    ['buy', [1, 2, 3, 4, 5]],
    ['buyLast', [1, 2]],
    ['preorderUnlimited', [1, 2, 3, 4, 5]],
    ['preorderFew', [1, 2, 3]],
    ['preorderLast', [1]],
    ['full', []],
    ['comingSoon', []],
  ])('the quantity menu for %s offers %j, and no title offers an empty one to choose from', (name, choices) => {
    expect(offerQuantityChoices(offers[name]!)).toEqual(choices);
  });

  it.each([
    ['buy', 'Only 7 left', 'low'],
    ['preorderUnlimited', 'Coming Soon', 'out'],
    ['preorderFew', 'Coming Soon', 'out'],
    ['full', 'Coming Soon', 'out'],
    ['comingSoon', 'Coming Soon', 'out'],
  ])('the badge for %s is %s', (name, label, tone) => {
    expect(offerBadge(offers[name]!)).toEqual({ label, tone });
  });

  it('a forthcoming title with copies on the shelf still shows the red Coming Soon', () => {
    expect(offerBadge(offerFor(title('future', 'some', true, 'none'), TODAY))).toEqual({ label: 'Coming Soon', tone: 'out' });
  });

  it('says the day a forthcoming title is out, in long US form', () => {
    expect(outOnLabel('2027-03-02')).toBe('Out March 2, 2027');
    expect(offerWords(offers.preorderFew!).outOn).toBe('Out March 2, 2027');
    expect(offerWords(offers.full!).outOn).toBe('Out March 2, 2027');
    expect(offerWords(offers.buy!).outOn).toBeNull();
    expect(offerWords(offers.comingSoon!).outOn).toBeNull();
  });

  it('says how many copies are left to pre-order only when few are', () => {
    expect(preorderCopiesNote(offers.preorderUnlimited!)).toBeNull();
    expect(preorderCopiesNote({ kind: 'preorder', copies: 11, outOn: '2027-03-02' })).toBeNull();
    expect(preorderCopiesNote({ kind: 'preorder', copies: 10, outOn: '2027-03-02' })).toBe('Only 10 copies left to pre-order.');
    expect(preorderCopiesNote(offers.preorderLast!)).toBe('Only 1 copy left to pre-order.');
    expect(preorderCopiesNote(offers.buy!)).toBeNull();
  });

  it('says the pre-orders are all taken only when they are', () => {
    expect(offerWords(offers.full!).fullText).toMatch(/Every pre-order copy has been taken/);
    for (const name of ['buy', 'preorderFew', 'comingSoon']) expect(offerWords(offers[name]!).fullText).toBeNull();
  });

  it('tells search engines PreOrder, with the day it is out, only while a parent can place one', () => {
    expect(availabilityOf(offers.preorderFew!)).toEqual({
      availability: 'https://schema.org/PreOrder',
      availabilityStarts: '2027-03-02',
    });
    expect(availabilityOf(offers.full!)).toEqual({ availability: 'https://schema.org/SoldOut' });
    expect(availabilityOf(offers.comingSoon!)).toEqual({ availability: 'https://schema.org/OutOfStock' });
    expect(availabilityOf(offers.buy!)).toEqual({ availability: 'https://schema.org/InStock' });
  });
});

describe('when an order holding pre-orders ships', () => {
  const line = (preorder: boolean, publishedOn: string) => ({ preorder, publishedOn });

  it('on the latest publication day of its pre-ordered titles; an order without one has none', () => {
    expect(shipsOn([line(true, '2027-03-02'), line(true, '2027-04-15'), line(false, '2027-09-01')])).toBe('2027-04-15');
    expect(shipsOn([line(false, '2024-01-01')])).toBeNull();
    expect(shipsOn([])).toBeNull();
  });

  it('may ship once the shop day reaches that day, and at once without a pre-order', () => {
    const lines = [line(true, '2027-03-02'), line(true, '2027-04-15')];
    expect(mayShip(lines, '2027-03-02')).toBe(false);
    expect(mayShip(lines, '2027-04-14')).toBe(false);
    expect(mayShip(lines, '2027-04-15')).toBe(true);
    expect(mayShip(lines, '2027-05-01')).toBe(true);
    expect(mayShip([line(false, '2027-04-15')], '2026-11-28')).toBe(true);
  });
});
