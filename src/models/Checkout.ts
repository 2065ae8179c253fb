import type { Cents } from '../lib/money.ts';
import { BaseModel } from './BaseModel.ts';

export interface CheckoutLine {
  bookId: number;
  title: string;
  quantity: number;
  priceCents: number;
  /** A pre-order's line: held against the title's pre-order limit, not its stock. */
  preorder?: boolean;
}

// open -> completed; open -> failed (card declined; may still be paid on a retry) -> completed;
// open | failed -> refunding (paid, cannot be filled) -> refunded; open | failed -> canceled (abandoned).
export type CheckoutStatus = 'open' | 'failed' | 'completed' | 'refunding' | 'refunded' | 'canceled';

/** A checkout still waiting for its payment to be settled one way or the other. */
export const UNSETTLED_STATUSES: CheckoutStatus[] = ['open', 'failed', 'refunding'];

/** The quote a payment intent was created for. */
export class Checkout extends BaseModel {
  static override tableName = 'checkouts';
  static override moneyColumns = ['subtotal', 'discount', 'shipping', 'handling', 'tax', 'total'];
  static override dateColumns = ['createdAt'];

  id!: number;
  paymentIntentId!: string;
  /** null once the account was erased: the order stays, without the person. */
  userId!: number | null;
  /** JSON of CheckoutLine[]. */
  lines!: string;
  subtotal!: Cents;
  shipping!: Cents;
  handling!: Cents;
  tax!: Cents;
  total!: Cents;
  shippingAddress!: string;
  city!: string;
  state!: string | null;
  zipCode!: string;
  status!: CheckoutStatus;
  soldOutTitle!: string | null;
  clientKey!: string | null;
  /** The discount code applied (upper case), and what it took off the subtotal. */
  discountCode!: string | null;
  discount!: Cents;
  /** Whether this checkout still holds a reserved use of its code (given back or made a use once). */
  discountHeld!: boolean | number;
  /** The parent's gift note, trimmed; null when none. */
  giftNote!: string | null;
  /** Who the gift is for, as the parent wrote it; null when not said. */
  giftRecipient!: string | null;
  createdAt!: Date;

  parsedLines(): CheckoutLine[] {
    return JSON.parse(this.lines) as CheckoutLine[];
  }
}
