import { toCents, toDecimal } from '../../lib/money.ts';
import type { Order } from '../../models/Order.ts';
import { trackingUrl } from './carriers.ts';
import { decimalTotals, type DecimalTotals } from '../pricing/pricing.ts';
import { displayStatus, statusLabel, type OrderMoney } from './order-status.ts';
import { orderShipsOn } from './preorder-facts.ts';
import { coverSrc } from '../catalog/cover.ts';

/** An order as the API, the dashboard and the confirmation page show it (docs/architecture.md, "What the API answers"). */
export interface OrderDto {
  id: number;
  /** The display status, a machine value ('succeeded', 'shipped'...): kept as it was for the API's callers. */
  status: string;
  /** What a parent reads for it ("Paid", "Partly refunded", "Shipped"): order-status.ts, statusLabel. */
  statusLabel: string;
  totalAmount: string;
  createdAt: string;
  stripePaymentIntentId: string | null;
  items: Array<{
    id: number;
    bookId: number;
    quantity: number;
    price: string;
    book: { title: string; imageUrl: string | null };
    /** A line of a paid pre-order still waiting for its title: the title's publication date ("2027-03-02"); null otherwise. */
    outOn: string | null;
  }>;
  /** A paid pre-order's shipping day: the latest publication date of its pre-ordered titles; null for any other order. */
  shipsOn: string | null;
  shippingAddress: string;
  city: string;
  state: string | null;
  zipCode: string;
  trackingNumber: string | null;
  estimatedDelivery: string | null;
  /** Set once shipped; trackingUrl is the carrier's page for the parcel, null for 'Other'. */
  carrier: string | null;
  trackingUrl: string | null;
  /** What has been given back so far, "0.00" when nothing. */
  refundedAmount: string;
  /** The discount code used, upper case; null without one (its amount is breakdown.discount). */
  discountCode: string | null;
  /** The parent's gift note; null when none. */
  giftNote: string | null;
  /** Who the gift is for; null when not said. */
  giftRecipient: string | null;
  breakdown: OrderBreakdown;
}

export type OrderBreakdown = DecimalTotals;

export function toBreakdown(order: Order): OrderBreakdown {
  return decimalTotals({
    subtotal: order.subtotal,
    discount: order.discount,
    shipping: order.shipping,
    handling: order.handling,
    tax: order.tax,
    total: order.totalAmount,
  });
}

/** An order's money as its status label weighs it (order-status.ts, statusLabel). */
export function dtoMoney(order: Pick<OrderDto, 'totalAmount' | 'refundedAmount'>): OrderMoney {
  return { totalCents: toCents(order.totalAmount), refundedCents: toCents(order.refundedAmount) };
}

export function toOrderDto(order: Order): OrderDto {
  const status = displayStatus(order.status);
  return {
    id: order.id,
    status,
    statusLabel: statusLabel(status, { totalCents: order.totalAmount, refundedCents: order.refundedAmount }),
    totalAmount: toDecimal(order.totalAmount),
    createdAt: order.createdAt.toISOString(),
    stripePaymentIntentId: order.stripePaymentIntentId,
    items: (order.items ?? []).map((item) => ({
      id: item.id,
      bookId: item.bookId,
      quantity: item.quantity,
      price: toDecimal(item.price),
      book: { title: item.book?.title ?? item.title, imageUrl: item.book ? coverSrc(item.book) : null },
      outOn: order.status === 'preordered' && item.preorder && item.book ? item.book.publishedOn : null,
    })),
    shipsOn: orderShipsOn(order),
    shippingAddress: order.shippingAddress,
    city: order.city,
    state: order.state,
    zipCode: order.zipCode,
    trackingNumber: order.trackingNumber,
    estimatedDelivery: order.estimatedDelivery,
    carrier: order.carrier ?? null,
    trackingUrl: trackingUrl(order.carrier ?? null, order.trackingNumber),
    refundedAmount: toDecimal(order.refundedAmount),
    discountCode: order.discountCode ?? null,
    giftNote: order.giftNote ?? null,
    giftRecipient: order.giftRecipient ?? null,
    breakdown: toBreakdown(order),
  };
}
