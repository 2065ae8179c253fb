import { useEffect, useRef, useState } from 'react';
import { ApiError, api, rememberCsrfToken } from '../lib/api.ts';
import { showTotals, TOTALS_EVENT, type TotalsAnswer } from '../lib/checkout-totals.ts';
import { showToast } from '../lib/toast.ts';
import { problemWith, readDetails, type CheckoutDetails } from './details.ts';
import type { IntentHandle, Payer } from './payer.ts';
import { SandboxCard } from './SandboxCard.tsx';

export const REDIRECT_AFTER_PAYMENT_MS = 1000;

export interface CardFormProps {
  variant: 'guest' | 'account';
  mode: 'sandbox' | 'stripe';
  publishableKey: string | null;
  customer: { name: string; email: string } | null;
}

interface OpenIntent extends IntentHandle {
  /** The address and total it was made for; a change asks for a new one. */
  key: string;
}

const fail = (title: string, err: unknown, fallback: string) =>
  showToast({ title, text: err instanceof ApiError && err.status < 500 && err.serverMessage ? err.serverMessage : fallback, variant: 'error' });

/**
 * The card entry and the Pay button of both checkout pages. On submit it runs the spec's
 * checkout flow: (guest) create the account and payment customer, price the order on the
 * server, create the payment intent, confirm the card, complete the order, and one second
 * after 'Payment Successful!' go to the order confirmation.
 */
export function CardForm({ variant, mode, publishableKey, customer }: CardFormProps) {
  const payer = useRef<Payer | null>(null);
  const stripeMount = useRef<HTMLDivElement>(null);
  const intent = useRef<OpenIntent | null>(null);
  const paymentCustomer = useRef<string | null>(null);
  const [total, setTotal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const onTotals = (event: Event) => setTotal((event as CustomEvent<TotalsAnswer>).detail.total);
    document.addEventListener(TOTALS_EVENT, onTotals);
    return () => document.removeEventListener(TOTALS_EVENT, onTotals);
  }, []);

  useEffect(() => {
    if (mode !== 'stripe') return;
    if (!publishableKey || !stripeMount.current) {
      showToast({ title: 'Error', text: 'Card element not found', variant: 'error' });
      return;
    }
    import('./stripe-payer.ts')
      .then(({ mountStripeCard }) => mountStripeCard(publishableKey, stripeMount.current!))
      .then((stripePayer) => (payer.current = stripePayer))
      .catch((err: Error) => showToast({ title: 'Error', text: `Failed to initialize checkout: ${err.message}`, variant: 'error' }));
  }, [mode, publishableKey]);

  useEffect(() => {
    const form = document.querySelector<HTMLFormElement>('[data-checkout-form]');
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      if (!busy && form) void pay(readDetails(form));
    };
    form?.addEventListener('submit', onSubmit);
    return () => form?.removeEventListener('submit', onSubmit);
  });

  async function pay(details: CheckoutDetails): Promise<void> {
    const problem = problemWith(details, variant);
    if (problem) return showToast({ ...problem, variant: 'error' });
    if (!payer.current) return showToast({ title: 'Error', text: 'Card element not found', variant: 'error' });
    const shippingInfo = { address: details.address, city: details.city, zipCode: details.zipCode };
    setBusy(true);
    try {
      if (variant === 'guest' && !paymentCustomer.current) {
        const created = await api<{ stripeCustomerId: string; csrfToken: string }>('POST', '/api/create-user-and-customer', { ...details, shippingInfo }).catch((err: unknown) => {
          fail('Account Creation Failed', err, 'Failed to create account. Please try again.');
        });
        if (!created) return;
        rememberCsrfToken(created.csrfToken);
        paymentCustomer.current = created.stripeCustomerId;
      }
      const totals = await api<TotalsAnswer>('POST', '/api/calculate-totals', shippingInfo).catch((err: unknown) => {
        fail('Error', err, 'Failed to calculate totals');
      });
      if (!totals) return;
      showTotals(totals);

      const key = JSON.stringify([shippingInfo, totals.total]);
      if (intent.current?.key !== key) {
        const created = await api<IntentHandle>(
          'POST',
          variant === 'guest' ? '/api/create-payment-intent-with-customer' : '/api/create-payment-intent-authenticated',
          variant === 'guest'
            ? { stripeCustomerId: paymentCustomer.current, totalAmount: totals.total, shippingInfo }
            : { amount: Math.round(Number(totals.total) * 100), shippingInfo },
        ).catch((err: unknown) => {
          fail('Payment Failed', err, 'Something went wrong. Please try again.');
        });
        if (!created) return;
        intent.current = { ...created, key };
      }
      const open = intent.current!;

      const name = variant === 'guest' ? `${details.firstName} ${details.lastName}` : (customer?.name ?? '');
      const result = await payer.current.confirm(open, { name, email: variant === 'guest' ? details.email : (customer?.email ?? ''), ...shippingInfo }).catch(() => ({
        ok: false as const,
        message: 'Something went wrong. Please try again.',
      }));
      if (!result.ok) return showToast({ title: 'Payment Failed', text: result.message, variant: 'error' });

      const completed = await api<{ order: { id: number; stripePaymentIntentId: string } }>('POST', '/api/complete-order', {
        stripePaymentIntentId: open.paymentIntentId,
        shippingInfo,
      }).catch((err: unknown) => {
        fail('Order Completion Failed', err instanceof ApiError && err.status === 409 ? err : null, 'Failed to complete order. Please contact support.');
      });
      if (!completed) return;
      showToast({ title: 'Payment Successful!', text: 'Thank you! Taking you to your order confirmation...' });
      const query = new URLSearchParams({ orderId: String(completed.order.id) });
      if (variant === 'guest') query.set('paymentIntentId', completed.order.stripePaymentIntentId);
      setTimeout(() => location.assign(`/order-confirmation?${query}`), REDIRECT_AFTER_PAYMENT_MS);
      return;
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card-form-inner">
      {mode === 'sandbox' ? <SandboxCard payerRef={payer} amount={total} /> : <div ref={stripeMount} className="stripe-card" aria-label="Card details" />}
      <button type="submit" className="pay-button" disabled={busy} aria-busy={busy || undefined}>
        {busy ? 'Processing...' : total ? `Pay $${total}` : 'Pay Now'}
      </button>
      <p className="form-aside">Payments are encrypted and processed by our card payment provider. We never store your card number.</p>
    </div>
  );
}
