import { lineLimit, MAX_COPIES_PER_TITLE, PER_TITLE_LIMIT_TEXT } from '../catalog/per-title-limit.ts';
import { shipsOn, shipsTogetherSentence, type Offer } from '../catalog/preorder.rules.ts';

// Pure cart rules: what a requested quantity becomes, given the copies a line may take.

/**
 * The copies a line of a title may draw on: its copies for sale, or, for a title taking
 * pre-orders, the pre-order copies left under its limit (Infinity: no limit). A bare number
 * is copies for sale.
 */
export interface Supply {
  copies: number;
  preorder: boolean;
}

type SupplyLike = number | Supply;

const supplyFrom = (supply: SupplyLike): Supply => (typeof supply === 'number' ? { copies: supply, preorder: false } : supply);

/** What a line may draw on, from what the title offers today (preorder.rules.ts, offerFor). */
export function supplyOf(offer: Offer): Supply {
  switch (offer.kind) {
    case 'buy':
      return { copies: offer.copies, preorder: false };
    case 'preorder':
      return { copies: offer.copies, preorder: true };
    case 'preorders-full':
      return { copies: 0, preorder: true };
    case 'coming-soon':
      return { copies: 0, preorder: false };
  }
}

/** A cart line as the page and the drawer have it: whether it is a pre-order, and its book's counts. */
export function lineSupply(line: { preorder: boolean; book: { inStock: number; preorderCopiesLeft: number | null } }): Supply {
  return line.preorder
    ? { copies: line.book.preorderCopiesLeft ?? Infinity, preorder: true }
    : { copies: line.book.inStock, preorder: false };
}

/** The most copies a line may hold: what it may draw on, at most the per-title cap. */
export function supplyLimit(supply: SupplyLike): number {
  return lineLimit(supplyFrom(supply).copies);
}

/** Why plus can add no more copies to a line of `quantity`, or null while it can. */
export function plusLimitReason(quantity: number, supply: SupplyLike): string | null {
  const { copies, preorder } = supplyFrom(supply);
  if (quantity < lineLimit(copies)) return null;
  if (copies > MAX_COPIES_PER_TITLE) return PER_TITLE_LIMIT_TEXT;
  return preorder ? `Only ${copies} pre-order ${copies === 1 ? 'copy' : 'copies'} left` : `Only ${copies} in stock`;
}

export type QuantityDecision =
  | { kind: 'remove' }
  | { kind: 'set'; quantity: number }
  /** `preorder` is set (true) only for a pre-order's line: the words name pre-order copies. */
  | { kind: 'refuse'; reason: 'sold-out' | 'not-enough' | 'per-title-cap'; available: number; preorder?: true };

/** A line set to `requested` copies, drawing on `supply` (copies in stock, or a pre-order's). */
export function decideQuantity(requested: number, supply: SupplyLike): QuantityDecision {
  const { copies, preorder } = supplyFrom(supply);
  const kind = preorder ? { preorder: true as const } : {};
  if (requested < 1) return { kind: 'remove' };
  if (copies < 1) return { kind: 'refuse', reason: 'sold-out', available: 0, ...kind };
  if (requested <= lineLimit(copies)) return { kind: 'set', quantity: requested };
  if (requested > MAX_COPIES_PER_TITLE && copies >= MAX_COPIES_PER_TITLE) {
    return { kind: 'refuse', reason: 'per-title-cap', available: MAX_COPIES_PER_TITLE, ...kind };
  }
  return { kind: 'refuse', reason: 'not-enough', available: copies, ...kind };
}

/**
 * Merging a visitor's line into an account's cart at sign-in keeps the larger quantity, capped
 * like any line: the same book put in the cart twice is one wish, not two orders of it.
 */
export function mergedQuantity(accountQuantity: number, visitorQuantity: number, supply: SupplyLike): number {
  return Math.min(Math.max(accountQuantity, visitorQuantity), supplyLimit(supply));
}

export function refusalMessage(decision: Extract<QuantityDecision, { kind: 'refuse' }>, title: string): string {
  if (decision.reason === 'per-title-cap') return PER_TITLE_LIMIT_TEXT;
  if (decision.preorder) {
    if (decision.reason === 'sold-out') return PREORDER_MESSAGES.full(title);
    const copies = decision.available === 1 ? '1 pre-order copy' : `${decision.available} pre-order copies`;
    return `Only ${copies} of "${title}" ${decision.available === 1 ? 'is' : 'are'} left.`;
  }
  if (decision.reason === 'sold-out') return `Sorry, "${title}" is sold out right now.`;
  const copies = decision.available === 1 ? '1 copy' : `${decision.available} copies`;
  return `Only ${copies} of "${title}" ${decision.available === 1 ? 'is' : 'are'} available.`;
}

/** The words of a pre-order's refusals, in the cart and at payment. */
export const PREORDER_MESSAGES = {
  full: (title: string) => `Sorry, every pre-order copy of "${title}" has been taken.`,
};

/** The cart's total in cents, from the books' own prices. */
export function cartTotalCents(items: ReadonlyArray<{ quantity: number; book: { priceCents: number } }>): number {
  return items.reduce((sum, item) => sum + item.quantity * item.book.priceCents, 0);
}

/**
 * What the cart and the order summary say before payment when they hold a pre-order: that
 * everything ships together once the last title is out, and when; null for a cart without one.
 */
export function shipsTogetherNote(items: ReadonlyArray<{ preorder: boolean; outOn: string | null }>): string | null {
  const day = shipsOn(items.filter((item) => item.outOn !== null).map((item) => ({ preorder: item.preorder, publishedOn: item.outOn! })));
  return day === null ? null : shipsTogetherSentence(day);
}

export function cartCopies(items: ReadonlyArray<{ quantity: number }>): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

/** Visitors check out as a new account; signed-in customers on the authenticated page. */
export function checkoutPath(isSignedIn: boolean): string {
  return isSignedIn ? '/authcheckout' : '/simple-checkout';
}

/** Why a line of an earlier order could not go back into the cart in full. */
export type Shortfall =
  | { title: string; reason: 'gone' }
  | { title: string; reason: 'not-enough'; available: number }
  | { title: string; reason: 'per-title-cap' };

/**
 * What 'Buy again' can add of `wanted` copies to a line already holding `inCart`: the rest up
 * to the line's limit, and why not all of them when it falls short. A book off sale, out of
 * stock or out of pre-order copies is skipped.
 */
export function buyAgainLine(
  book: { title: string; supply: SupplyLike } | undefined,
  title: string,
  wanted: number,
  inCart: number,
): { add: number; shortfall: Shortfall | null } {
  const copies = book ? supplyFrom(book.supply).copies : 0;
  if (!book || copies < 1) return { add: 0, shortfall: { title: book?.title ?? title, reason: 'gone' } };
  const room = Math.max(0, lineLimit(copies) - inCart);
  if (wanted <= room) return { add: wanted, shortfall: null };
  const shortfall: Shortfall =
    copies > MAX_COPIES_PER_TITLE
      ? { title: book.title, reason: 'per-title-cap' }
      : { title: book.title, reason: 'not-enough', available: copies };
  return { add: room, shortfall };
}

export function shortfallMessage(s: Shortfall): string {
  if (s.reason === 'gone') return `"${s.title}" is no longer available.`;
  if (s.reason === 'per-title-cap') return `Only ${MAX_COPIES_PER_TITLE} copies of "${s.title}" fit in one order.`;
  return s.available === 1 ? `Only 1 copy of "${s.title}" was available.` : `Only ${s.available} copies of "${s.title}" were available.`;
}
