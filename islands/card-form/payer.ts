// How the card form confirms a payment: through Stripe.js, or through the shop's sandbox.

export interface Billing {
  name: string;
  email: string;
  address: string;
  city: string;
  zipCode: string;
}

export interface IntentHandle {
  clientSecret: string;
  paymentIntentId: string;
}

export type PayResult = { ok: true } | { ok: false; message: string };

export interface Payer {
  confirm(intent: IntentHandle, billing: Billing): Promise<PayResult>;
}

export const CARD_CHECK_ADVICE = 'Please check your card details and try again, or use a different card.';
