import { BaseModel } from './BaseModel.ts';

export interface CheckoutLine {
  bookId: number;
  title: string;
  quantity: number;
  priceCents: number;
}

export type CheckoutStatus = 'open' | 'completed' | 'failed' | 'refunded';

/** The quote a payment intent was created for. */
export class Checkout extends BaseModel {
  static override tableName = 'checkouts';

  id!: number;
  paymentIntentId!: string;
  userId!: number;
  /** JSON of CheckoutLine[]. */
  lines!: string;
  subtotal!: string | number;
  shipping!: string | number;
  handling!: string | number;
  tax!: string | number;
  total!: string | number;
  shippingAddress!: string;
  city!: string;
  state!: string | null;
  zipCode!: string;
  status!: CheckoutStatus;
  createdAt!: Date | string | number;

  parsedLines(): CheckoutLine[] {
    return JSON.parse(this.lines) as CheckoutLine[];
  }
}
