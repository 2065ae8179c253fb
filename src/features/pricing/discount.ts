import type { Cents } from '../../lib/money.ts';

/** What a discount code does to a price, without its dates, limits or name. */
export interface DiscountOffer {
  kind: 'percentage' | 'fixed' | 'free_shipping';
  /** Whole percent, for a percentage code. */
  percent: number;
  /** Cents, for a fixed code. */
  amount: Cents;
}

/** What comes off the books' subtotal: never more than the subtotal, so it never goes below zero. */
export function discountCents(subtotal: Cents, offer: DiscountOffer | undefined): Cents {
  if (!offer) return 0;
  if (offer.kind === 'percentage') return Math.min(subtotal, Math.round((subtotal * offer.percent) / 100));
  if (offer.kind === 'fixed') return Math.min(subtotal, offer.amount);
  return 0;
}
