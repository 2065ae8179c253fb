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

/** Labels the rule below would spell wrongly. */
const LABELS: Record<string, string> = { preordered: 'Pre-ordered' };

/** "requires_payment_method" -> "Requires payment method"; "preordered" -> "Pre-ordered". */
export function statusLabel(status: string): string {
  if (LABELS[status]) return LABELS[status];
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
