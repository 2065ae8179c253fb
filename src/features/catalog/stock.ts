import type { Offer } from './preorder.rules.ts';

// Stock badge thresholds: above 10, 1 to 10, 0 (docs/architecture.md, "Books and stock").
export const PLENTY_THRESHOLD = 10;

export type StockTone = 'in-stock' | 'low' | 'out';

export function stockBadge(inStock: number): { label: string; tone: StockTone } {
  if (inStock > PLENTY_THRESHOLD) return { label: 'In Stock', tone: 'in-stock' };
  if (inStock >= 1) return { label: `Only ${inStock} left`, tone: 'low' };
  return { label: 'Coming Soon', tone: 'out' };
}

/** The badge for what a title offers today: a forthcoming title keeps the red Coming Soon, whatever its shelf holds. */
export function offerBadge(offer: Offer): { label: string; tone: StockTone } {
  return stockBadge(offer.kind === 'buy' ? offer.copies : 0);
}
