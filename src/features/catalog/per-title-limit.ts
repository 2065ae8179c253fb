import type { Offer } from './preorder.rules.ts';

// How many copies of one title a customer may take. The book page offers quantities and the
// cart and checkout hold them to the same cap, so it lives in catalog, which they build on.

/**
 * The most copies of one title a cart (and so an order) may hold. A publisher's shop sells to
 * families and schools; a cap keeps one customer from holding a whole print run at checkout.
 */
export const MAX_COPIES_PER_TITLE = 50;

/** The sentence shown beside the quantity controls and in a refusal at the cap. */
export const PER_TITLE_LIMIT_TEXT = `Up to ${MAX_COPIES_PER_TITLE} copies of each book per order.`;

/** The most copies of a book one cart line may hold: the copies in stock, at most the cap. */
export function lineLimit(inStock: number): number {
  return Math.max(0, Math.min(inStock, MAX_COPIES_PER_TITLE));
}

/** The book page's quantity menu stops here: a family rarely buys more copies at once. */
export const QUANTITY_MENU_MAX = 5;

/** What the book page's menu offers: 1 to the smaller of five and the copies a line may hold. */
export function quantityChoices(inStock: number): number[] {
  const top = Math.min(QUANTITY_MENU_MAX, lineLimit(inStock));
  return Array.from({ length: top }, (_, i) => i + 1);
}

/** The menu for what a title offers today: its copies to buy or to pre-order; none when it offers neither. */
export function offerQuantityChoices(offer: Offer): number[] {
  return offer.kind === 'buy' || offer.kind === 'preorder' ? quantityChoices(offer.copies) : [];
}
