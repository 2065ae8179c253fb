// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardForm } from '../../islands/card-form/CardForm.tsx';
import { COMPLETE_ORDER_ATTEMPTS } from '../../islands/card-form/finish-order.ts';
import { TOTALS_EVENT, TOTALS_FAILED_EVENT } from '../../islands/lib/checkout-totals.ts';

// After the card is paid, the order is the shop's to find: a lost complete-order answer (a
// dropped connection, a 5xx) is retried, then the order is looked up by its payment, because
// the sandbox's confirm or Stripe's webhook has made it. Only a real decline says
// 'Payment Failed'. fetch answers here like the shop's API does; the real API is tested in
// test/features and the browser journey in test/e2e/checkout.e2e.ts.

const INTENT = 'pi_sbx_0a1b2c';
const ORDER = { id: 42, stripePaymentIntentId: INTENT, status: 'succeeded' };
const LOOKUP = `/api/orders/by-payment-intent/${INTENT}`;

type Answer = Response | Error;
let answers: Record<string, Array<() => Answer>>;
let calls: string[];
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;
/** Every toast's title, in order: a toast removes itself after a few seconds. */
let toasts: string[];
let watcher: MutationObserver;

/** Each call to `key` ("POST /api/complete-order") takes the next answer; the last one repeats. */
function answer(key: string, ...next: Array<() => Answer>) {
  answers[key] = next;
}
const fail500 = () => Response.json({ message: 'Something went wrong. Please try again.' }, { status: 500 });
const dropped = () => new TypeError('Failed to fetch');
const notFound = () => Response.json({ message: 'Order not found' }, { status: 404 });
const found = () => Response.json(ORDER);

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
  answers = {};
  answer('GET /api/session', () => Response.json({ csrfToken: 't' }));
  answer('POST /api/calculate-totals', () =>
    Response.json({ subtotal: '16.99', shipping: '7.99', handling: '2.50', tax: '0.00', total: '27.48' }),
  );
  answer('POST /api/create-payment-intent-authenticated', () =>
    Response.json({ clientSecret: `${INTENT}_secret_x`, paymentIntentId: INTENT, amount: 2748 }),
  );
  answer('POST /api/sandbox/confirm', () => Response.json({ status: 'succeeded', error: null }));
  answer('POST /api/complete-order', () => Response.json({ order: ORDER }));
  answer(`GET ${LOOKUP}`, notFound);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    calls.push(key);
    const queue = answers[key];
    if (!queue) throw new Error(`unexpected ${key}`);
    const result = (queue.length > 1 ? queue.shift()! : queue[0]!)();
    if (result instanceof Error) throw result;
    return result;
  });
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
  document.body.innerHTML = `
    <div data-toasts><ol></ol></div>
    <form data-checkout-form>
      <input name="address" value="1120 SW 5th Ave"><input name="city" value="Portland"><input name="zipCode" value="97205">
      <div id="card-island"></div>
    </form>`;
  toasts = [];
  watcher = new MutationObserver(() => {
    const title = document.querySelector('[data-toasts] .toast-title')?.textContent;
    if (title && toasts.at(-1) !== title) toasts.push(title);
  });
  watcher.observe(document.querySelector('[data-toasts]')!, { childList: true, subtree: true });
});
afterEach(() => {
  watcher.disconnect();
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const countOf = (key: string) => calls.filter((c) => c === key).length;

async function payWithCard(number = '4242 4242 4242 4242') {
  const { container } = render(
    <CardForm variant="account" mode="sandbox" publishableKey={null} customer={{ name: 'Ada Reader', email: 'ada@example.com' }} />,
    {
      container: document.getElementById('card-island')!,
    },
  );
  fireEvent.change(container.querySelector('#card-number')!, { target: { value: number } });
  fireEvent.change(container.querySelector('#card-expiry')!, { target: { value: '12/34' } });
  fireEvent.change(container.querySelector('#card-cvc')!, { target: { value: '123' } });
  fireEvent.submit(document.querySelector('form')!);
  return container;
}

/**
 * The payment's failure as the parent meets it: beside the Pay button, drawn as a refusal's
 * summary is (its title, then what to do), announced, holding the focus, and the button
 * described by it; never a toast.
 */
function problemShown(container: HTMLElement): { title: string; text: string } {
  const problem = container.querySelector<HTMLElement>('#payment-problem')!;
  expect(problem.matches('.form-problems[role="alert"][tabindex="-1"]')).toBe(true);
  // The Pay button is described by all of it, title and reason: no name stands in for it.
  expect(problem.hasAttribute('aria-labelledby')).toBe(false);
  expect(document.activeElement).toBe(problem);
  const pay = container.querySelector('button.pay-button');
  if (pay) {
    expect(pay.getAttribute('aria-describedby')).toBe('payment-problem');
    expect(problem.nextElementSibling).toBe(pay);
  }
  expect(document.querySelector('[data-toasts] [data-toast], .toast-error')).toBeNull();
  return {
    title: problem.querySelector('h2.form-problems-title')?.textContent ?? '',
    text: problem.querySelector('p')?.textContent ?? '',
  };
}

async function settle() {
  await act(async () => {
    await vi.runAllTimersAsync();
  });
}

describe('the card form after a successful payment', () => {
  it('retries a complete-order that failed with a 500, then finds the order by its payment and goes to the confirmation', async () => {
    answer('POST /api/complete-order', fail500);
    answer(`GET ${LOOKUP}`, found);
    await payWithCard();
    await settle();
    expect(countOf('POST /api/complete-order')).toBe(COMPLETE_ORDER_ATTEMPTS);
    expect(countOf(`GET ${LOOKUP}`)).toBe(1);
    expect(assign).toHaveBeenCalledWith('/order-confirmation?orderId=42');
    expect(toasts).toEqual(['Payment Successful!']);
    expect(document.body.textContent).not.toContain('Order Completion Failed');
  });

  it('says it is finishing the order while it retries a dropped connection, and goes on when a retry answers', async () => {
    answer('POST /api/complete-order', dropped, () => Response.json({ order: ORDER }));
    const container = await payWithCard();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(container.querySelector('[role="status"]')?.textContent).toBe('Your payment went through. Finishing your order...');
    expect(assign).not.toHaveBeenCalled();
    await settle();
    expect(countOf('POST /api/complete-order')).toBe(2);
    expect(countOf(`GET ${LOOKUP}`)).toBe(0);
    expect(assign).toHaveBeenCalledWith('/order-confirmation?orderId=42');
  });

  it('keeps looking while the order is not there yet (the webhook is slower than the parent)', async () => {
    answer('POST /api/complete-order', dropped);
    answer(`GET ${LOOKUP}`, notFound, dropped, found);
    await payWithCard();
    await settle();
    expect(countOf(`GET ${LOOKUP}`)).toBe(3);
    expect(assign).toHaveBeenCalledWith('/order-confirmation?orderId=42');
  });

  it('when no order can be found, says the card was charged, that the order will be emailed and how to reach the shop, and offers no second payment', async () => {
    answer('POST /api/complete-order', fail500);
    const container = await payWithCard();
    await settle();
    expect(assign).not.toHaveBeenCalled();
    // Toasts only confirm success: the reason stays beside Pay, announced.
    expect(toasts).toEqual([]);
    expect(problemShown(container).title).toBe('Order Completion Failed');
    const problem = container.querySelector('#payment-problem')!;
    expect(problem.textContent).toContain('Your card was charged');
    expect(problem.textContent).toContain('emailed');
    expect(problem.querySelector('a')?.getAttribute('href')).toBe('/contact');
    expect(container.querySelector('button.pay-button')).toBeNull();
    expect(document.body.textContent).not.toContain('Payment Failed');
  });
});

describe('a confirm call that gets no answer', () => {
  it('goes to the confirmation when the payment did go through and made its order', async () => {
    answer('POST /api/sandbox/confirm', dropped);
    answer(`GET ${LOOKUP}`, found);
    await payWithCard();
    await settle();
    expect(assign).toHaveBeenCalledWith('/order-confirmation?orderId=42');
    expect(toasts).toEqual(['Payment Successful!']);
  });

  it("says 'Payment Failed' when no order came of it", async () => {
    answer('POST /api/sandbox/confirm', dropped);
    const container = await payWithCard();
    await settle();
    expect(toasts).toEqual([]);
    expect(problemShown(container)).toEqual({ title: 'Payment Failed', text: 'Something went wrong. Please try again.' });
    expect(countOf('POST /api/complete-order')).toBe(0);
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('a payment that really failed', () => {
  it("says 'Payment Failed' with the bank's words and never tries to complete an order", async () => {
    answer('POST /api/sandbox/confirm', () => Response.json({ status: 'requires_payment_method', error: 'Your card was declined.' }));
    const container = await payWithCard('4000 0000 0000 0002');
    await settle();
    expect(toasts).toEqual([]);
    expect(problemShown(container)).toEqual({ title: 'Payment Failed', text: 'Your card was declined.' });
    expect(countOf('POST /api/complete-order')).toBe(0);
    expect(countOf(`GET ${LOOKUP}`)).toBe(0);
    expect(container.querySelector('button.pay-button')).not.toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('a guest form with fields missing', () => {
  it('marks and lists every missing field at once, focuses the summary, sends nothing, and clears each problem when it is fixed', async () => {
    document.body.innerHTML = `
      <div data-toasts><ol></ol></div>
      <form id="checkout-form" data-checkout-form>
        <input id="co-first" name="firstName"><input id="co-last" name="lastName" value="Reader">
        <input id="co-email" name="email"><input id="co-password" name="password" type="password"><input id="co-confirm" name="confirmPassword" type="password">
        <input id="co-address" name="address"><input id="co-city" name="city" value="Portland"><input id="co-zip" name="zipCode">
        <div id="card-island"></div>
      </form>`;
    render(<CardForm variant="guest" mode="sandbox" publishableKey={null} customer={null} />, {
      container: document.getElementById('card-island')!,
    });
    fireEvent.submit(document.querySelector('form')!);
    await settle();
    const summary = document.querySelector('#checkout-form > [data-form-problems]') as HTMLElement;
    expect(summary).not.toBeNull();
    expect(document.activeElement).toBe(summary);
    expect(summary.querySelector('h2')?.textContent).toBe('Missing Information');
    expect([...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '#co-first',
      '#co-email',
      '#co-password',
      '#co-address',
      '#co-zip',
    ]);
    for (const id of ['co-first', 'co-email', 'co-password', 'co-address', 'co-zip']) {
      expect(document.getElementById(id)?.getAttribute('aria-invalid'), id).toBe('true');
      expect(document.getElementById(id)?.getAttribute('aria-describedby'), id).toBe(`${id}-error`);
    }
    expect(document.getElementById('co-last')?.hasAttribute('aria-invalid')).toBe(false);
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(toasts).toEqual([]);
    expect(document.querySelector('#payment-problem')).toBeNull();

    const first = document.getElementById('co-first') as HTMLInputElement;
    fireEvent.input(first, { target: { value: 'Ada' } });
    expect(first.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('co-first-error')).toBeNull();
    expect(document.querySelectorAll('#checkout-form > [data-form-problems] li')).toHaveLength(4);
  });
});

describe('the Pay button while the summary has no totals it can trust', () => {
  it('is off and described by the reason until totals come, and pays nothing meanwhile', async () => {
    const { container } = render(
      <CardForm variant="account" mode="sandbox" publishableKey={null} customer={{ name: 'Ada Reader', email: 'ada@example.com' }} />,
      { container: document.getElementById('card-island')! },
    );
    act(() => {
      document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: { total: '27.48' } }));
    });
    const pay = container.querySelector('button.pay-button')!;
    expect(pay.textContent).toBe('Pay $27.48');
    act(() => {
      document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: null }));
      document.dispatchEvent(new CustomEvent(TOTALS_FAILED_EVENT, { detail: 'Failed to calculate shipping and tax' }));
    });
    // The old amount is not offered, and a press charges nothing.
    expect(pay.textContent).toBe('Pay Now');
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    expect(pay.getAttribute('aria-describedby')).toBe('totals-problem');
    fireEvent.submit(document.querySelector('form')!);
    await settle();
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);

    act(() => {
      document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: { total: '27.48' } }));
    });
    expect(pay.hasAttribute('aria-disabled')).toBe(false);
    expect(pay.hasAttribute('aria-describedby')).toBe(false);
    expect(pay.textContent).toBe('Pay $27.48');
  });
});

describe('a card entry that cannot start', () => {
  it('says so beside Pay without taking the focus from where the parent starts', async () => {
    const before = document.createElement('input');
    document.body.prepend(before);
    before.focus();
    const { container } = render(<CardForm variant="account" mode="stripe" publishableKey={null} customer={null} />, {
      container: document.getElementById('card-island')!,
    });
    await settle();
    const problem = container.querySelector('#payment-problem')!;
    expect(problem.getAttribute('role')).toBe('alert');
    expect(problem.querySelector('h2.form-problems-title')?.textContent).toBe('Error');
    expect(problem.querySelector('p')?.textContent).toBe('Card element not found');
    expect(document.activeElement).toBe(before);
    expect(toasts).toEqual([]);
  });
});
