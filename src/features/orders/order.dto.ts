import { toDate } from '../../lib/dates.ts';
import { toCents, toDecimal } from '../../lib/money.ts';
import type { Order } from '../../models/Order.ts';
import { trackingUrl } from './carriers.ts';
import { displayStatus } from './order-status.ts';

/** An order as the API, the dashboard and the confirmation page show it (spec section 3). */
export interface OrderDto {
  id: number;
  status: string;
  totalAmount: string;
  createdAt: string;
  stripePaymentIntentId: string | null;
  items: Array<{ id: number; bookId: number; quantity: number; price: string; book: { title: string; imageUrl: string | null } }>;
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
  breakdown: OrderBreakdown;
}

export interface OrderBreakdown {
  subtotal: string;
  shipping: string;
  handling: string;
  tax: string;
  total: string;
}

const money = (value: string | number) => toDecimal(toCents(value));

export function toBreakdown(order: Order): OrderBreakdown {
  return { subtotal: money(order.subtotal), shipping: money(order.shipping), handling: money(order.handling), tax: money(order.tax), total: money(order.totalAmount) };
}

export function toOrderDto(order: Order): OrderDto {
  return {
    id: order.id,
    status: displayStatus(order.status),
    totalAmount: money(order.totalAmount),
    createdAt: toDate(order.createdAt).toISOString(),
    stripePaymentIntentId: order.stripePaymentIntentId,
    items: (order.items ?? []).map((item) => ({
      id: item.id,
      bookId: item.bookId,
      quantity: item.quantity,
      price: money(item.price),
      book: { title: item.book?.title ?? item.title, imageUrl: item.book?.imageUrl ?? null },
    })),
    shippingAddress: order.shippingAddress,
    city: order.city,
    state: order.state,
    zipCode: order.zipCode,
    trackingNumber: order.trackingNumber,
    estimatedDelivery: order.estimatedDelivery ? toDate(order.estimatedDelivery).toISOString().slice(0, 10) : null,
    carrier: order.carrier ?? null,
    trackingUrl: trackingUrl(order.carrier ?? null, order.trackingNumber),
    refundedAmount: money(order.refundedAmount ?? 0),
    breakdown: toBreakdown(order),
  };
}
