import { toDecimal, type Cents } from '../../lib/money.ts';
import {
  FREE_SHIPPING_THRESHOLD_CENTS,
  HANDLING_CENTS,
  REDUCED_SHIPPING_CENTS,
  REDUCED_SHIPPING_THRESHOLD_CENTS,
  STANDARD_SHIPPING_CENTS,
} from './constants.ts';
import { discountCents, type DiscountOffer } from './discount.ts';

// Prices of an order, in cents (docs/architecture.md, "Prices and shipping"). Pure: the server calls them with the
// session's cart and the address's state; nothing here trusts the browser.

/** Free at $50.00 and above, $4.99 from $25.00, $7.99 below. */
export function shippingCents(subtotal: Cents): Cents {
  if (subtotal >= FREE_SHIPPING_THRESHOLD_CENTS) return 0;
  if (subtotal >= REDUCED_SHIPPING_THRESHOLD_CENTS) return REDUCED_SHIPPING_CENTS;
  return STANDARD_SHIPPING_CENTS;
}

/** Sales tax rates in basis points (1/100 of a percent) by state. */
const TAX_RATE_BPS: Record<string, number> = {
  WA: 920,
  LA: 950,
  CA: 875,
  TX: 820,
  NY: 804,
  FL: 700,
  DE: 0,
  MT: 0,
  NH: 0,
  OR: 0,
};
export const DEFAULT_TAX_RATE_BPS = 650;

export function taxRateBps(state: string | null | undefined): number {
  if (!state) return DEFAULT_TAX_RATE_BPS;
  return TAX_RATE_BPS[state.toUpperCase()] ?? DEFAULT_TAX_RATE_BPS;
}

/** Tax on the books' subtotal only (shipping and handling are not taxed), rounded half up to the cent. */
export function taxCents(subtotal: Cents, state: string | null | undefined): Cents {
  return Math.round((subtotal * taxRateBps(state)) / 10_000);
}

export interface Totals {
  /** The books, before any discount. */
  subtotal: Cents;
  /** What a discount code took off the subtotal; 0 without one. */
  discount: Cents;
  shipping: Cents;
  handling: Cents;
  tax: Cents;
  total: Cents;
}

/** Totals as the API, the pages and the emails write them: "12.99" each. */
export type DecimalTotals = Record<keyof Totals, string>;

export function decimalTotals(totals: Totals): DecimalTotals {
  return {
    subtotal: toDecimal(totals.subtotal),
    discount: toDecimal(totals.discount),
    shipping: toDecimal(totals.shipping),
    handling: toDecimal(totals.handling),
    tax: toDecimal(totals.tax),
    total: toDecimal(totals.total),
  };
}

/**
 * A discount comes off the subtotal first; the shipping tier and the tax follow the discounted
 * subtotal, and a free-shipping code makes shipping 0.
 */
export function orderTotals(subtotal: Cents, state: string | null | undefined, offer?: DiscountOffer): Totals {
  const discount = discountCents(subtotal, offer);
  const discounted = subtotal - discount;
  const shipping = offer?.kind === 'free_shipping' ? 0 : shippingCents(discounted);
  const tax = taxCents(discounted, state);
  return { subtotal, discount, shipping, handling: HANDLING_CENTS, tax, total: discounted + shipping + HANDLING_CENTS + tax };
}
