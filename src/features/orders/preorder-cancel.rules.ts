// A parent may cancel their own order only while it is a pre-order waiting for its books:
// once released to To pack it may be in a parcel already, and the operator decides.

const REFUSALS: Record<string, string> = {
  succeeded: 'This order has already been packed for shipping, so it can no longer be canceled here. Please contact us.',
  shipped: 'This order has already shipped, so it can no longer be canceled here. Please contact us.',
  delivered: 'This order has already been delivered, so it can no longer be canceled here. Please contact us.',
  canceled: 'This order has already been canceled.',
};

const OTHERWISE = 'This order is not a pre-order, so it cannot be canceled here. Please contact us.';

/** Why a parent may not cancel an order with this (stored) status; null when they may. */
export function parentCancelRefusal(status: string): string | null {
  if (status === 'preordered') return null;
  return REFUSALS[status] ?? OTHERWISE;
}
