import type { Cents } from '../../lib/money.ts';

// Order display status (docs/architecture.md, "Order status"): the payment provider's status wins unless it says
// there is no payment intent or the provider could not be asked, with one exception: what the
// shop did after the payment (shipped, delivered, canceled) wins over the provider's status,
// which stays 'succeeded' for ever and would otherwise hide the parcel's progress.

export type StatusTone = 'green' | 'blue' | 'yellow' | 'red' | 'grey';

const KNOWN = [
  'succeeded',
  'processing',
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'canceled',
  'failed',
  'delivered',
  'shipped',
  'pending',
  'preordered',
];

// A pre-order is paid ('succeeded' at the provider) and waits for its books: the shop's word wins.
const FULFILMENT = ['preordered', 'shipped', 'delivered', 'canceled'];

export function displayStatus(orderStatus: string, providerStatus?: string | null): string {
  const providerSays = providerStatus && providerStatus !== 'no_payment_intent' && providerStatus !== 'stripe_error';
  const status = FULFILMENT.includes(orderStatus) || !providerSays ? orderStatus : providerStatus;
  return KNOWN.includes(status) ? status : 'pending';
}

export function statusTone(status: string): StatusTone {
  if (status === 'succeeded' || status === 'delivered') return 'green';
  if (status === 'processing' || status === 'shipped' || status === 'preordered') return 'blue';
  if (status.startsWith('requires_')) return 'yellow';
  if (status === 'canceled' || status === 'failed') return 'red';
  return 'grey';
}

/**
 * The words a parent or an operator reads for each display status: never the payment
 * provider's own ("succeeded", "requires_payment_method"). The admin list's filter says
 * "Paid" and "Canceled", and every sentence of the shop spells canceled so: the badge agrees.
 */
const LABELS: Record<string, string> = {
  succeeded: 'Paid',
  processing: 'Processing',
  requires_payment_method: 'Waiting for payment',
  requires_confirmation: 'Waiting for payment',
  requires_action: 'Waiting for payment',
  pending: 'Waiting for payment',
  failed: 'Payment failed',
  preordered: 'Pre-ordered',
  shipped: 'Shipped',
  delivered: 'Delivered',
  canceled: 'Canceled',
};

/** The money taken on an order and what has been given back of it, in cents. */
export interface OrderMoney {
  totalCents: Cents;
  refundedCents: Cents;
}

// Statuses under which the money was taken and kept, so a refund has something to change.
const PAID = ['succeeded', 'preordered', 'shipped', 'delivered'];

/**
 * The label for a display status. Money given back in full reads "Refunded" on any paid order
 * that was not canceled (a canceled one says "Canceled" and its story says what came back).
 * Money given back in part replaces "Paid" alone: on a pre-order, a shipped or a delivered
 * order the parcel's progress is still the news, and the order's story adds the refund.
 */
export function statusLabel(status: string, money: OrderMoney): string {
  if (PAID.includes(status) && money.refundedCents > 0) {
    if (money.refundedCents >= money.totalCents) return 'Refunded';
    if (status === 'succeeded') return 'Partly refunded';
  }
  return LABELS[status] ?? LABELS.pending!;
}

/** The badge of a display status: its label and the spec's colour for the status. */
export function statusBadge(status: string, money: OrderMoney): { label: string; tone: StatusTone } {
  return { label: statusLabel(status, money), tone: statusTone(status) };
}
