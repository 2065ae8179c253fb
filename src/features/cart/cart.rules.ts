// Pure cart rules: what a requested quantity becomes, given the copies in stock.

export type QuantityDecision =
  | { kind: 'remove' }
  | { kind: 'set'; quantity: number }
  | { kind: 'refuse'; reason: 'sold-out' | 'not-enough'; available: number };

/** A line set to `requested` copies of a book with `inStock` copies. */
export function decideQuantity(requested: number, inStock: number): QuantityDecision {
  if (requested < 1) return { kind: 'remove' };
  if (inStock < 1) return { kind: 'refuse', reason: 'sold-out', available: 0 };
  if (requested > inStock) return { kind: 'refuse', reason: 'not-enough', available: inStock };
  return { kind: 'set', quantity: requested };
}

/** Merging a visitor's line into an account's cart adds quantities, capped by stock. */
export function mergedQuantity(accountQuantity: number, visitorQuantity: number, inStock: number): number {
  return Math.min(accountQuantity + visitorQuantity, Math.max(inStock, 0));
}

export function refusalMessage(decision: Extract<QuantityDecision, { kind: 'refuse' }>, title: string): string {
  if (decision.reason === 'sold-out') return `Sorry, "${title}" is sold out right now.`;
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
