// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardForm } from '../../islands/card-form/CardForm.tsx';
import { EmailCheck } from '../../islands/email-check/EmailCheck.tsx';
import { TOTALS_EVENT } from '../../islands/lib/checkout-totals.ts';

// A returning parent presses Pay at guest checkout with an address that has an account: making
// the account is refused, the email check offers the sign-in at once, and signing in there pays
// with the card still typed, through the signed-in checkout's calls. Unless signing in changed
// the order (books waiting in the account's cart): then the signed-in checkout shows it first.
// fetch answers like the shop's API; the real API is tested in
// test/features/checkout/returning-parent.test.ts and the journey in test/e2e/returning-parent.e2e.ts.

const TAKEN = 'This email is already registered. Please use a different email or sign in.';
const INTENT = 'pi_sbx_0a1b2c';
const ORDER = { id: 42, stripePaymentIntentId: INTENT, status: 'succeeded' };
const TOTALS = { subtotal: '16.99', discount: '0.00', shipping: '7.99', handling: '2.50', tax: '0.00', total: '27.48' };

let answers: Record<string, () => Response>;
let calls: string[];
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
  answers = {
    'GET /api/session': () => Response.json({ csrfToken: 't' }),
    'POST /api/check-email': () => Response.json({ exists: true }),
    'POST /api/create-user-and-customer': () => Response.json({ message: TAKEN, field: 'email' }, { status: 409 }),
    'POST /api/auth/login': () => Response.json({ redirectUrl: '/authcheckout', csrfToken: 'u' }),
    'POST /api/calculate-totals': () => Response.json(TOTALS),
    'POST /api/create-payment-intent-authenticated': () =>
      Response.json({ clientSecret: `${INTENT}_secret_x`, paymentIntentId: INTENT, amount: 2748 }),
    'POST /api/sandbox/confirm': () => Response.json({ status: 'succeeded', error: null }),
    'POST /api/complete-order': () => Response.json({ order: ORDER }),
  };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    calls.push(key);
    const answer = answers[key];
    if (!answer) throw new Error(`unexpected ${key}`);
    return answer();
  });
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
  document.body.innerHTML = `
    <div data-toasts><ol></ol></div>
    <form id="checkout-form" data-checkout-form>
      <input id="co-first" name="firstName" value="Rosa"><input id="co-last" name="lastName" value="Reader">
      <input id="co-email" name="email" type="email" value="rosa@example.com">
      <div id="email-island"></div>
      <input id="co-password" name="password" type="password" value="bedtime-story">
      <input id="co-confirm" name="confirmPassword" type="password" value="bedtime-story">
      <input id="co-address" name="address" value="1120 SW 5th Ave"><input id="co-city" name="city" value="Portland">
      <input id="co-zip" name="zipCode" value="97205">
      <div id="card-island"></div>
    </form>`;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function settle() {
  await act(async () => {
    await vi.runAllTimersAsync();
  });
}

/** Both islands of the guest checkout; the summary's total shown on the Pay button; the card typed; Pay pressed. */
async function pressPay() {
  render(<EmailCheck inputId="co-email" signIn={{ passwordId: 'co-password', next: '/authcheckout' }} />, {
    container: document.getElementById('email-island')!,
  });
  const { container } = render(<CardForm variant="guest" mode="sandbox" publishableKey={null} customer={null} />, {
    container: document.getElementById('card-island')!,
  });
  act(() => {
    document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: TOTALS }));
  });
  fireEvent.change(container.querySelector('#card-number')!, { target: { value: '4242 4242 4242 4242' } });
  fireEvent.change(container.querySelector('#card-expiry')!, { target: { value: '12/34' } });
  fireEvent.change(container.querySelector('#card-cvc')!, { target: { value: '123' } });
  expect(container.querySelector('button.pay-button')?.textContent).toBe('Pay $27.48');
  fireEvent.submit(document.querySelector('form')!);
  // Only the refusal: the live check's own second is not waited for.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(10);
  });
}

const offer = () => document.querySelector<HTMLButtonElement>('#email-island button')!;

describe('Pay pressed with an address that has an account', () => {
  it('offers the sign-in at once, and signing in there pays: the signed-in calls, the card as typed, one order', async () => {
    await pressPay();
    expect(document.querySelector('#checkout-form-problems h2')?.textContent).toBe('Account Creation Failed');
    // Said once beside the email, by the check that offers the sign-in, and the field marked.
    expect(document.querySelector('#email-island .email-check')?.textContent).toBe(TAKEN);
    expect(document.getElementById('co-email-error')).toBeNull();
    expect(document.getElementById('co-email')?.getAttribute('aria-invalid')).toBe('true');
    expect(offer().textContent).toBe('Sign in and continue');

    await act(async () => {
      offer().click();
    });
    await settle();
    const after = calls.slice(calls.indexOf('POST /api/auth/login'));
    expect(after).toEqual([
      'POST /api/auth/login',
      'POST /api/calculate-totals',
      'POST /api/create-payment-intent-authenticated',
      'POST /api/sandbox/confirm',
      'POST /api/complete-order',
    ]);
    expect(calls).not.toContain('POST /api/create-payment-intent-with-customer');
    // Signed in now: the confirmation by order number, as for any signed-in parent.
    expect(assign.mock.calls).toEqual([['/order-confirmation?orderId=42']]);
    expect(document.querySelector('#email-island')?.textContent).toBe('You are now signed in.');
    expect(document.getElementById('checkout-form-problems')).toBeNull();
  });

  it('goes to the signed-in checkout instead when signing in changed the total: nothing is paid unseen', async () => {
    await pressPay();
    answers['POST /api/calculate-totals'] = () => Response.json({ ...TOTALS, subtotal: '33.98', shipping: '4.99', total: '41.47' });
    await act(async () => {
      offer().click();
    });
    await settle();
    expect(assign.mock.calls).toEqual([['/authcheckout']]);
    expect(calls).not.toContain('POST /api/create-payment-intent-authenticated');
    expect(calls).not.toContain('POST /api/sandbox/confirm');
  });

  it('a temporary password goes to choose a new one before anything is paid', async () => {
    await pressPay();
    answers['POST /api/auth/login'] = () => Response.json({ redirectUrl: '/change-password', csrfToken: 'u' });
    await act(async () => {
      offer().click();
    });
    await settle();
    expect(assign.mock.calls).toEqual([['/change-password']]);
    expect(calls).not.toContain('POST /api/calculate-totals');
  });

  it('a wrong password pays nothing and leaves the offer for another try', async () => {
    await pressPay();
    answers['POST /api/auth/login'] = () => Response.json({ message: 'Invalid email or password' }, { status: 401 });
    await act(async () => {
      offer().click();
    });
    await settle();
    expect(document.getElementById('co-password-error')?.textContent).toBe('Invalid email or password');
    expect(calls).not.toContain('POST /api/calculate-totals');
    expect(assign).not.toHaveBeenCalled();
    expect(offer().textContent).toBe('Sign in and continue');
  });
});
