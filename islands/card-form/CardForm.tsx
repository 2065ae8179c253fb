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

/** The reason a step failed, from the server where it gave one a parent can read. */
const reason = (err: unknown, fallback: string) => (err instanceof ApiError && err.status < 500 && err.serverMessage ? err.serverMessage : fallback);

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
  // A failed step is told in a toast and stays written beside the Pay button.
  const [problem, setProblem] = useState<string | null>(null);
  const fail = (title: string, text: string) => {
    setProblem(`${title}: ${text}`);
    showToast({ title, text, variant: 'error' });
  };

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
    const invalid = problemWith(details, variant);
    if (invalid) return fail(invalid.title, invalid.text);
    if (!payer.current) return fail('Error', 'Card element not found');
    const shippingInfo = { address: details.address, city: details.city, zipCode: details.zipCode };
    setProblem(null);
    setBusy(true);
    try {
      if (variant === 'guest' && !paymentCustomer.current) {
        const created = await api<{ stripeCustomerId: string; csrfToken: string }>('POST', '/api/create-user-and-customer', { ...details, shippingInfo }).catch((err: unknown) => {
          fail('Account Creation Failed', reason(err, 'Failed to create account. Please try again.'));
        });
        if (!created) return;
        rememberCsrfToken(created.csrfToken);
        paymentCustomer.current = created.stripeCustomerId;
      }
      const totals = await api<TotalsAnswer>('POST', '/api/calculate-totals', shippingInfo).catch((err: unknown) => {
        fail('Error', reason(err, 'Failed to calculate totals'));
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
          fail('Payment Failed', reason(err, 'Something went wrong. Please try again.'));
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
      if (!result.ok) return fail('Payment Failed', result.message);

      const completed = await api<{ order: { id: number; stripePaymentIntentId: string } }>('POST', '/api/complete-order', {
        stripePaymentIntentId: open.paymentIntentId,
        shippingInfo,
      }).catch((err: unknown) => {
        // A refund for a book that sold out comes back as a 409 whose message says so.
        const text = 'Failed to complete order. Please contact support.';
        fail('Order Completion Failed', err instanceof ApiError && err.status === 409 ? reason(err, text) : text);
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
      {mode === 'sandbox' ? <SandboxCard payerRef={payer} amount={total} /> : <div ref={stripeMount} className="stripe-card" role="group" aria-label="Card details" />}
      {/* The toast announces the failure; this stays, and the Pay button points to it. */}
      {problem && (
        <p className="form-error" id="payment-problem">
          {problem}
        </p>
      )}
      {/* Busy, not disabled (the submit handler ignores it while busy): a disabled button drops the keyboard focus, and the bank's dialog would hand it back to nothing. */}
      <button type="submit" className="pay-button" aria-busy={busy || undefined} aria-describedby={problem ? 'payment-problem' : undefined}>
        {busy ? 'Processing...' : total ? `Pay $${total}` : 'Pay Now'}
      </button>
      <p className="form-aside">Payments are encrypted and processed by our card payment provider. We never store your card number.</p>
    </div>
  );
}
