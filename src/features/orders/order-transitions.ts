import { Conflict } from '../../web/errors.ts';

// The order's own status once paid (docs/architecture.md, "Order status"): succeeded → shipped → delivered, or
// succeeded → canceled. A paid pre-order waits as preordered until its titles are out and served
// from stock (preorder-release.ts), then is succeeded (To pack) like any order; until it ships it
// may be canceled, by the operator or by the parent. Anything else is refused with a sentence
// an operator can act on.

export type FulfilmentStatus = 'released' | 'shipped' | 'delivered' | 'canceled';

const ALLOWED: Record<FulfilmentStatus, readonly string[]> = {
  released: ['preordered'],
  shipped: ['succeeded'],
  delivered: ['shipped'],
  canceled: ['succeeded', 'preordered'],
};

const VERB: Record<FulfilmentStatus, string> = {
  released: 'moved to To pack',
  shipped: 'marked shipped',
  delivered: 'marked delivered',
  canceled: 'canceled',
};

const NOW: Record<string, string> = { succeeded: 'paid and not shipped yet', preordered: 'a pre-order waiting for its books' };

export function assertTransition(from: string, to: FulfilmentStatus): void {
  if (ALLOWED[to].includes(from)) return;
  throw new Conflict(`This order is ${NOW[from] ?? from}, so it cannot be ${VERB[to]}.`);
}

/** The statuses an order may have for `to`, for conditional updates (`whereIn('status', ...)`). */
export function requiredStatuses(to: FulfilmentStatus): readonly string[] {
  return ALLOWED[to];
}

/** Money can be given back on a paid order that was not canceled. */
export function assertRefundable(status: string): void {
  if (status === 'succeeded' || status === 'preordered' || status === 'shipped' || status === 'delivered') return;
  throw new Conflict(`This order is ${status}, so no more money can be refunded on it.`);
}
