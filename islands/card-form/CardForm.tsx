import { useEffect, useRef, useState } from 'react';
import { formatUsdDecimal } from '../../src/lib/money.ts';
import { api, ApiError, messageOf, rememberCsrfToken } from '../lib/api.ts';
import { showTotals, TOTALS_EVENT, TOTALS_FAILED_EVENT, TOTALS_PROBLEM_ID, type TotalsAnswer } from '../lib/checkout-totals.ts';
import { forgetKeptFields } from '../lib/kept-fields.ts';
import { EMAIL_TAKEN_EVENT, SIGNED_IN_EVENT, type SignedInDetail } from '../lib/checkout-sign-in.ts';
import { showToast } from '../lib/toast.ts';
import { clearProblems, showProblems } from '../lib/form-problems.ts';
import { CHECKOUT_FIELD_IDS, problemsWith, readDetails, type CheckoutDetails } from './details.ts';
import type { IntentHandle, Payer } from './payer.ts';
import { findOrder, finishOrder, type PlacedOrder } from './finish-order.ts';
import { SandboxCard } from './SandboxCard.tsx';
import { toCents } from '../../src/lib/money.ts';

export const REDIRECT_AFTER_PAYMENT_MS = 1000;
/** Said when the card was charged and the order could not be found from the page. */
export const ORDER_PENDING_TEXT =
  'Your card was charged, and your order confirmation will be emailed to you shortly. Please do not pay again. If it has not arrived within an hour, please contact us.';

export interface CardFormProps {
  variant: 'guest' | 'account';
  mode: 'sandbox' | 'stripe';
  publishableKey: string | null;
  customer: { name: string; email: string } | null;
}

/** A payment step's failure: its title ('Payment Failed') and what to do. */
interface PaymentProblem {
  title: string;
  text: string;
  /** A failure of the parent's press takes the focus; one found as the page opens does not. */
  focus: boolean;
}

interface OpenIntent extends IntentHandle {
  /** The address and total it was made for; a change asks for a new one. */
  key: string;
}

/** The guest's account fields, read-only while and once their account is made. */
function lockAccountFields(form: HTMLFormElement | null, locked: boolean): void {
  for (const field of ['firstName', 'lastName', 'email', 'password', 'confirmPassword'] as const) {
    const input = form?.querySelector<HTMLInputElement>(`#${CHECKOUT_FIELD_IDS[field]}`);
    if (input) input.readOnly = locked;
  }
}

/**
 * The card entry and the Pay button of both checkout pages. On submit it runs the checkout flow
 * (docs/architecture.md, "Checkout and orders"): (guest) create the account and payment
 * customer, price the order on the server, create the payment intent, confirm the card,
 * complete the order (see finish-order.ts: a lost answer is retried, then the order is found
 * by its payment), and one second after 'Payment Successful!' go to the order confirmation.
 */
export function CardForm({ variant, mode, publishableKey, customer }: CardFormProps) {
  const payer = useRef<Payer | null>(null);
  const stripeMount = useRef<HTMLDivElement>(null);
  const intent = useRef<OpenIntent | null>(null);
  const paymentCustomer = useRef<string | null>(null);
  const [total, setTotal] = useState<string | null>(null);
  // The summary could not work the totals out: there is nothing right to charge until it does.
  const [totalsFailed, setTotalsFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  // A failed payment step is told beside the Pay button, where the parent is (the bank's dialog
  // hands the focus back there), drawn as a refusal's summary is and given the focus as one is;
  // problems with the fields go to the form's own summary.
  const [problem, setProblem] = useState<PaymentProblem | null>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  // The payment succeeded and its answer was lost: the order is being found.
  const [finishing, setFinishing] = useState(false);
  const [chargedWithoutOrder, setChargedWithoutOrder] = useState(false);
  const fail = (title: string, text: string) => setProblem({ title, text, focus: true });
  // A returning parent at guest checkout: Pay found the address has an account (waiting for
  // the sign-in the email check offers), then signed in there; from then on this page pays as
  // the signed-in checkout does.
  const payAfterSignIn = useRef(false);
  const signedInHere = useRef(false);
  /** The total on the Pay button the parent pressed before signing in: only that is paid without a look. */
  const pressedTotal = useRef<string | null>(null);

  useEffect(() => {
    if (problem?.focus) problemRef.current?.focus();
  }, [problem]);

  useEffect(() => {
    const onTotals = (event: Event) => {
      setTotal((event as CustomEvent<TotalsAnswer | null>).detail?.total ?? null);
      setTotalsFailed(false);
    };
    const onTotalsFailed = () => setTotalsFailed(true);
    document.addEventListener(TOTALS_EVENT, onTotals);
    document.addEventListener(TOTALS_FAILED_EVENT, onTotalsFailed);
    return () => {
      document.removeEventListener(TOTALS_EVENT, onTotals);
      document.removeEventListener(TOTALS_FAILED_EVENT, onTotalsFailed);
    };
  }, []);

  useEffect(() => {
    if (mode !== 'stripe') return;
    // Said as the page opens: no focus is taken from where the parent starts.
    if (!publishableKey || !stripeMount.current) {
      setProblem({ title: 'Error', text: 'Card element not found', focus: false });
      return;
    }
    import('./stripe-payer.ts')
      .then(({ mountStripeCard }) => mountStripeCard(publishableKey, stripeMount.current!))
      .then((stripePayer) => (payer.current = stripePayer))
      .catch((err: Error) => setProblem({ title: 'Error', text: `Failed to initialize checkout: ${err.message}`, focus: false }));
  }, [mode, publishableKey]);

  useEffect(() => {
    const onSignedIn = (event: Event) => {
      if (!payAfterSignIn.current) return;
      // Ours to finish: the card is typed here, so the payment goes on here.
      event.preventDefault();
      payAfterSignIn.current = false;
      signedInHere.current = true;
      pressedTotal.current = total;
      rememberCsrfToken((event as CustomEvent<SignedInDetail>).detail.csrfToken);
      const form = document.querySelector<HTMLFormElement>('[data-checkout-form]');
      lockAccountFields(form, true);
      if (form) void pay(readDetails(form));
    };
    document.addEventListener(SIGNED_IN_EVENT, onSignedIn);
    return () => document.removeEventListener(SIGNED_IN_EVENT, onSignedIn);
  });

  useEffect(() => {
    const form = document.querySelector<HTMLFormElement>('[data-checkout-form]');
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      if (!busy && !chargedWithoutOrder && !totalsFailed && form) void pay(readDetails(form));
    };
    form?.addEventListener('submit', onSubmit);
    return () => form?.removeEventListener('submit', onSubmit);
  });

  async function pay(details: CheckoutDetails): Promise<void> {
    const form = document.querySelector<HTMLFormElement>('[data-checkout-form]');
    // A guest who signed in on this page pays with their account, as the signed-in checkout does.
    const asGuest = variant === 'guest' && !signedInHere.current;
    const checked = asGuest ? 'guest' : 'account';
    setProblem(null);
    const invalid = problemsWith(details, checked);
    if (invalid && form) {
      const recheck = () => problemsWith(readDetails(form), checked)?.problems ?? [];
      return showProblems(form, invalid, CHECKOUT_FIELD_IDS, { recheck });
    }
    if (form) clearProblems(form);
    if (!payer.current) return fail('Error', 'Card element not found');
    const shippingInfo = { address: details.address, city: details.city, zipCode: details.zipCode };
    setProblem(null);
    setBusy(true);
    try {
      if (asGuest && !paymentCustomer.current) {
        // The account is made with these details: from now on they are not edited (a retry pays
        // with the same account), and the live email check asks nothing more of a session that
        // is about to be replaced.
        lockAccountFields(form, true);
        const created = await api<{ stripeCustomerId: string; csrfToken: string }>('POST', '/api/create-user-and-customer', {
          ...details,
          shippingInfo,
        }).catch((err: unknown) => {
          const text = messageOf(err, 'Failed to create account. Please try again.');
          // A refusal about one of the parent's fields (an address already registered) goes beside it.
          const field = err instanceof ApiError && err.field && err.field in CHECKOUT_FIELD_IDS ? err.field : undefined;
          lockAccountFields(form, false);
          if (err instanceof ApiError && err.status === 409 && field === 'email' && form) {
            // The address has an account: the email check beside the field says so and offers the
            // sign-in (so the summary names no field, which would say it twice), and signing in pays.
            payAfterSignIn.current = true;
            showProblems(form, { title: 'Account Creation Failed', problems: [{ message: text }] }, CHECKOUT_FIELD_IDS);
            document.dispatchEvent(new CustomEvent(EMAIL_TAKEN_EVENT, { detail: { inputId: CHECKOUT_FIELD_IDS.email } }));
          } else if (field && form)
            showProblems(form, { title: 'Account Creation Failed', problems: [{ field, message: text }] }, CHECKOUT_FIELD_IDS);
          else fail('Account Creation Failed', text);
        });
        if (!created) return;
        rememberCsrfToken(created.csrfToken);
        paymentCustomer.current = created.stripeCustomerId;
      }
      const totals = await api<TotalsAnswer>('POST', '/api/calculate-totals', shippingInfo).catch((err: unknown) => {
        fail('Error', messageOf(err, 'Failed to calculate totals'));
      });
      if (!totals) return;
      showTotals(totals);
      const pressed = pressedTotal.current;
      pressedTotal.current = null;
      if (pressed !== null && totals.total !== pressed) {
        // The account's cart had books waiting, which joined this one: the summary drawn here is
        // no longer the order, so the signed-in checkout shows it afresh before anything is paid.
        location.assign('/authcheckout');
        return;
      }

      // A changed note or name needs a checkout of its own: the note travels with the payment intent.
      const key = JSON.stringify([shippingInfo, totals.total, details.giftNote, details.giftRecipient]);
      if (intent.current?.key !== key) {
        const created = await api<IntentHandle>(
          'POST',
          asGuest ? '/api/create-payment-intent-with-customer' : '/api/create-payment-intent-authenticated',
          asGuest
            ? {
                stripeCustomerId: paymentCustomer.current,
                totalAmount: totals.total,
                shippingInfo,
                giftNote: details.giftNote,
                giftRecipient: details.giftRecipient,
              }
            : {
                amount: toCents(totals.total),
                shippingInfo,
                giftNote: details.giftNote,
                giftRecipient: details.giftRecipient,
              },
        ).catch((err: unknown) => {
          fail('Payment Failed', messageOf(err, 'Something went wrong. Please try again.'));
        });
        if (!created) return;
        intent.current = { ...created, key };
      }
      const open = intent.current;

      // Billed to the name and email typed on the guest's form, even once signed in here.
      const typed = variant === 'guest';
      const name = typed ? `${details.firstName} ${details.lastName}` : (customer?.name ?? '');
      const result = await payer.current
        .confirm(open, { name, email: typed ? details.email : (customer?.email ?? ''), ...shippingInfo })
        .catch(() => null);
      if (!result) {
        // No answer: the card may have been charged all the same, and then its order exists.
        const order = await findOrder(open.paymentIntentId);
        return order ? confirmed(order) : fail('Payment Failed', 'Something went wrong. Please try again.');
      }
      if (!result.ok) return fail('Payment Failed', result.message);

      const finished = await finishOrder(open.paymentIntentId, shippingInfo, () => setFinishing(true));
      setFinishing(false);
      if (finished.kind === 'refused') return fail('Order Completion Failed', finished.message);
      if (finished.kind === 'lost') {
        // Paying again would charge twice for one order: the shop makes it and emails it.
        setChargedWithoutOrder(true);
        return fail('Order Completion Failed', ORDER_PENDING_TEXT);
      }
      return confirmed(finished.order);
    } finally {
      setBusy(false);
    }
  }

  function confirmed(order: PlacedOrder): void {
    forgetKeptFields();
    showToast({ title: 'Payment Successful!', text: 'Thank you! Taking you to your order confirmation...' });
    const query = new URLSearchParams({ orderId: String(order.id) });
    if (variant === 'guest' && !signedInHere.current) query.set('paymentIntentId', order.stripePaymentIntentId);
    setTimeout(() => location.assign(`/order-confirmation?${query}`), REDIRECT_AFTER_PAYMENT_MS);
  }

  return (
    <div className="card-form-inner">
      {mode === 'sandbox' ? (
        <SandboxCard payerRef={payer} amount={total} />
      ) : (
        <div ref={stripeMount} className="stripe-card" role="group" aria-label="Card details" />
      )}
      <p className="form-status" role="status">
        {finishing ? 'Your payment went through. Finishing your order...' : ''}
      </p>
      {/* No toast tells a failure: this is announced, takes the focus, stays, and the Pay button is
          described by it (all of it: so it has no aria-labelledby, whose title alone would be read). */}
      {problem && (
        <div ref={problemRef} className="form-problems" id="payment-problem" role="alert" tabIndex={-1}>
          <h2 className="form-problems-title">{problem.title}</h2>
          <p>
            {problem.text}
            {chargedWithoutOrder && (
              <>
                {' '}
                <a href="/contact">Contact Little Lantern Books</a>
              </>
            )}
          </p>
        </div>
      )}
      {/* Busy, not disabled (the submit handler ignores it while busy or without totals): a disabled button drops the keyboard focus, and the bank's dialog would hand it back to nothing. */}
      {!chargedWithoutOrder && (
        <button
          type="submit"
          className="pay-button"
          aria-busy={busy || undefined}
          aria-disabled={totalsFailed || undefined}
          aria-describedby={[problem && 'payment-problem', totalsFailed && TOTALS_PROBLEM_ID].filter(Boolean).join(' ') || undefined}
        >
          {busy ? 'Processing...' : total ? `Pay ${formatUsdDecimal(total)}` : 'Pay Now'}
        </button>
      )}
      <p className="form-aside">Payments are encrypted and processed by our card payment provider. We never store your card number.</p>
    </div>
  );
}
