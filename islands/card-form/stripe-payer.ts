import type { loadStripe as LoadStripe } from '@stripe/stripe-js';
// The "pure" entry loads Stripe.js only when loadStripe() is called, not on import.
import * as pure from '@stripe/stripe-js/pure/index.mjs';

const loadStripe = (pure as unknown as { loadStripe: typeof LoadStripe }).loadStripe;
import type { Billing, IntentHandle, Payer, PayResult } from './payer.ts';
import { CARD_CHECK_ADVICE } from './payer.ts';

// Loaded only on the checkout pages, and only when real Stripe keys are configured:
// Stripe.js comes from js.stripe.com, the card element lives in Stripe's iframe.
export async function mountStripeCard(publishableKey: string, container: HTMLElement): Promise<Payer> {
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe.js could not be loaded');
  const card = stripe.elements().create('card', { hidePostalCode: true, style: { base: { fontSize: '16px', color: '#2b2a33' } } });
  card.mount(container);
  return {
    async confirm(intent: IntentHandle, billing: Billing): Promise<PayResult> {
      const { error, paymentIntent } = await stripe.confirmCardPayment(intent.clientSecret, {
        payment_method: {
          card,
          billing_details: {
            name: billing.name,
            email: billing.email,
            address: { line1: billing.address, city: billing.city, postal_code: billing.zipCode, country: 'US' },
          },
        },
      });
      if (error) return { ok: false, message: error.message ?? CARD_CHECK_ADVICE };
      return paymentIntent?.status === 'succeeded' ? { ok: true } : { ok: false, message: CARD_CHECK_ADVICE };
    },
  };
}
