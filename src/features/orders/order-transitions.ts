import { Conflict } from '../../web/errors.ts';

// The order's own status once paid (docs/architecture.md, "Order status"): succeeded → shipped → delivered, or
// succeeded → canceled. Anything else is refused with a sentence an operator can act on.

export type FulfilmentStatus = 'shipped' | 'delivered' | 'canceled';

const ALLOWED: Record<FulfilmentStatus, string> = { shipped: 'succeeded', delivered: 'shipped', canceled: 'succeeded' };

const VERB: Record<FulfilmentStatus, string> = { shipped: 'marked shipped', delivered: 'marked delivered', canceled: 'canceled' };

export function assertTransition(from: string, to: FulfilmentStatus): void {
  if (ALLOWED[to] === from) return;
  const now = from === 'succeeded' ? 'paid and not shipped yet' : from;
  throw new Conflict(`This order is ${now}, so it cannot be ${VERB[to]}.`);
}

/** The status an order must have for `to`, for conditional updates. */
export function requiredStatus(to: FulfilmentStatus): string {
  return ALLOWED[to];
}

/** Money can be given back on a paid order that was not canceled. */
export function assertRefundable(status: string): void {
  if (status === 'succeeded' || status === 'shipped' || status === 'delivered') return;
  throw new Conflict(`This order is ${status}, so no more money can be refunded on it.`);
}
