import type { CheckoutLine } from '../../models/Checkout.ts';
import { BadRequest, NotFound } from '../../web/errors.ts';
import type { CartOwner, CartService } from '../cart/cart.service.ts';
import { orderTotals, type Totals } from '../pricing/pricing.ts';
import { lookupZip } from '../pricing/zip.ts';
import type { ShippingInfo } from '../accounts/shipping-info.ts';
import type { AppliedCode } from '../discounts/discount-uses.ts';

export const EMPTY_CART_MESSAGE = 'Your cart is empty. Add some books before checking out.';
export const withdrawnMessage = (title: string) => `"${title}" is no longer available. Please remove it from your cart.`;

export interface Quote {
  lines: CheckoutLine[];
  totals: Totals;
  /** The state the ZIP code belongs to; null for a ZIP code not in the database. */
  state: string | null;
  /** The discount code applied, checked against this subtotal. */
  code: AppliedCode | undefined;
}

/** Checks a discount code against the cart's subtotal; throws the reason it cannot be used. */
export type DiscountLookup = (subtotal: number) => Promise<AppliedCode>;

/** What this cart costs delivered to this address: every amount from the server's own records. */
export async function quoteCart(
  carts: CartService,
  owner: CartOwner,
  shipping: Pick<ShippingInfo, 'zipCode'>,
  discount?: DiscountLookup,
): Promise<Quote> {
  const items = await carts.getItems(owner);
  if (items.length === 0) throw new BadRequest(EMPTY_CART_MESSAGE);
  // A book taken off sale after it was added: the shop no longer sells it, to anyone.
  const withdrawn = await carts.withdrawnTitle(owner);
  if (withdrawn) throw new NotFound(withdrawnMessage(withdrawn));
  const lines = items.map((item) => ({
    bookId: item.bookId,
    title: item.book.title,
    quantity: item.quantity,
    priceCents: item.book.priceCents,
    // From what the title offers on the shop's day (the cart's line): held against its pre-order limit.
    ...(item.preorder ? { preorder: true } : {}),
  }));
  const subtotal = lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
  const state = lookupZip(shipping.zipCode)?.state ?? null;
  const code = discount ? await discount(subtotal) : undefined;
  return { lines, totals: orderTotals(subtotal, state, code?.offer), state, code };
}
