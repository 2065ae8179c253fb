import { lineLimit, MAX_COPIES_PER_TITLE, PER_TITLE_LIMIT_TEXT } from '../catalog/per-title-limit.ts';

// Pure cart rules: what a requested quantity becomes, given the copies in stock.

/** Why plus can add no more copies to a line of `quantity`, or null while it can. */
export function plusLimitReason(quantity: number, inStock: number): string | null {
  if (quantity < lineLimit(inStock)) return null;
  return inStock > MAX_COPIES_PER_TITLE ? PER_TITLE_LIMIT_TEXT : `Only ${inStock} in stock`;
}

export type QuantityDecision =
  | { kind: 'remove' }
  | { kind: 'set'; quantity: number }
  | { kind: 'refuse'; reason: 'sold-out' | 'not-enough' | 'per-title-cap'; available: number };

/** A line set to `requested` copies of a book with `inStock` copies. */
export function decideQuantity(requested: number, inStock: number): QuantityDecision {
  if (requested < 1) return { kind: 'remove' };
  if (inStock < 1) return { kind: 'refuse', reason: 'sold-out', available: 0 };
  if (requested <= lineLimit(inStock)) return { kind: 'set', quantity: requested };
  if (requested > MAX_COPIES_PER_TITLE && inStock >= MAX_COPIES_PER_TITLE) {
    return { kind: 'refuse', reason: 'per-title-cap', available: MAX_COPIES_PER_TITLE };
  }
  return { kind: 'refuse', reason: 'not-enough', available: inStock };
}

/** Merging a visitor's line into an account's cart adds quantities, capped like any line. */
export function mergedQuantity(accountQuantity: number, visitorQuantity: number, inStock: number): number {
  return Math.min(accountQuantity + visitorQuantity, lineLimit(inStock));
}

export function refusalMessage(decision: Extract<QuantityDecision, { kind: 'refuse' }>, title: string): string {
  if (decision.reason === 'sold-out') return `Sorry, "${title}" is sold out right now.`;
  if (decision.reason === 'per-title-cap') return PER_TITLE_LIMIT_TEXT;
  const copies = decision.available === 1 ? '1 copy' : `${decision.available} copies`;
  return `Only ${copies} of "${title}" ${decision.available === 1 ? 'is' : 'are'} available.`;
}

/** The cart's total in cents, from the books' own prices. */
export function cartTotalCents(items: ReadonlyArray<{ quantity: number; book: { priceCents: number } }>): number {
  return items.reduce((sum, item) => sum + item.quantity * item.book.priceCents, 0);
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
 * to the line's limit, and why not all of them when it falls short. A book off sale or out of
 * stock is skipped.
 */
export function buyAgainLine(
  book: { title: string; inStock: number } | undefined,
  title: string,
  wanted: number,
  inCart: number,
): { add: number; shortfall: Shortfall | null } {
  if (!book || book.inStock < 1) return { add: 0, shortfall: { title: book?.title ?? title, reason: 'gone' } };
  const room = Math.max(0, lineLimit(book.inStock) - inCart);
  if (wanted <= room) return { add: wanted, shortfall: null };
  const shortfall: Shortfall =
    book.inStock > MAX_COPIES_PER_TITLE
      ? { title: book.title, reason: 'per-title-cap' }
      : { title: book.title, reason: 'not-enough', available: book.inStock };
  return { add: room, shortfall };
}

export function shortfallMessage(s: Shortfall): string {
  if (s.reason === 'gone') return `"${s.title}" is no longer available.`;
  if (s.reason === 'per-title-cap') return `Only ${MAX_COPIES_PER_TITLE} copies of "${s.title}" fit in one order.`;
  return s.available === 1 ? `Only 1 copy of "${s.title}" was available.` : `Only ${s.available} copies of "${s.title}" were available.`;
}
