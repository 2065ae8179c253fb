import { ApiError, api } from '../lib/api.ts';

// Once the card is paid the order exists or soon will: the sandbox's confirm and Stripe's
// webhook make it too, and the sweep makes any that both missed. So a lost answer to
// complete-order (a dropped connection, a 5xx) is retried, which is safe because the server
// makes one order per payment, and then the order is looked up by its payment.

export interface PlacedOrder {
  id: number;
  stripePaymentIntentId: string;
}

export type Finished =
  | { kind: 'order'; order: PlacedOrder }
  /** The server's own answer (a 409: the book sold out and the payment was refunded). */
  | { kind: 'refused'; message: string }
  /** Paid, and no order could be found yet. */
  | { kind: 'lost' };

/** Waits before the second and third complete-order call. */
const COMPLETE_ORDER_RETRY_MS = [1000, 2000];
export const COMPLETE_ORDER_ATTEMPTS = COMPLETE_ORDER_RETRY_MS.length + 1;
/** Waits before each look-up: the webhook may arrive a few seconds after the payment. */
const LOOKUP_WAITS_MS = [0, 2000, 4000];

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failure worth asking again: no answer at all, or the server's own trouble. */
const transient = (err: unknown) => !(err instanceof ApiError) || err.status >= 500;

export async function finishOrder(paymentIntentId: string, shippingInfo: object, onRetry: () => void): Promise<Finished> {
  for (let attempt = 0; attempt < COMPLETE_ORDER_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      onRetry();
      await pause(COMPLETE_ORDER_RETRY_MS[attempt - 1]!);
    }
    try {
      const { order } = await api<{ order: PlacedOrder }>('POST', '/api/complete-order', {
        stripePaymentIntentId: paymentIntentId,
        shippingInfo,
      });
      return { kind: 'order', order };
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.serverMessage) return { kind: 'refused', message: err.serverMessage };
      if (!transient(err)) break;
    }
  }
  onRetry();
  const order = await findOrder(paymentIntentId);
  return order ? { kind: 'order', order } : { kind: 'lost' };
}

/** The customer's order made by this payment, looked for a few times; null when none turns up. */
export async function findOrder(paymentIntentId: string): Promise<PlacedOrder | null> {
  for (const wait of LOOKUP_WAITS_MS) {
    await pause(wait);
    try {
      return await api<PlacedOrder>('GET', `/api/orders/by-payment-intent/${encodeURIComponent(paymentIntentId)}`);
    } catch {
      // Not there yet (404), or no answer: look again.
    }
  }
  return null;
}
