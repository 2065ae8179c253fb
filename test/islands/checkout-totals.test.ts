// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initCheckoutTotals, TOTALS_EVENT, TOTALS_FAILED_EVENT } from '../../islands/lib/checkout-totals.ts';

// The checkout summary asks the server for its totals once the address is filled. When the
// server refuses (a discount code that expired while the page was open, say), the parent reads
// the server's reason; when the server fails, the general message. Either is told where the
// totals would be and beside the address fields, never in a toast, and no older totals stay.

let totalsAnswer: () => Response;

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    if (key === 'GET /api/session') return Response.json({ csrfToken: 't' });
    if (key === 'POST /api/calculate-totals') return totalsAnswer();
    throw new Error(`unexpected ${key}`);
  });
  document.body.innerHTML = `
    <div data-toasts><ol></ol></div>
    <form data-checkout-form>
      <fieldset>
        <input name="address" value="1120 SW 5th Ave"><input name="city" value="Portland"><input name="zipCode" value="97205">
        <div class="address-check"></div>
      </fieldset>
    </form>
    <dl data-totals>
      <dt>Subtotal</dt><dd data-total="subtotal">$16.99</dd>
      <dt>Shipping</dt><dd data-total="shipping">Enter your address</dd><dt>Handling</dt><dd data-total="handling">-</dd>
      <dt>Tax</dt><dd data-total="tax">-</dd><dt>Total</dt><dd data-total="total">-</dd>
    </dl>`;
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const PORTLAND_ANSWER = { subtotal: '16.99', discount: '0.00', shipping: '7.99', handling: '2.50', tax: '0.00', total: '27.48' };

/** What the page tells of a failure: in the summary (announced) and beside the address fields. */
async function failureShown(): Promise<{ inSummary: string; besideAddress: string }> {
  const alert = await vi.waitFor(() => {
    const shown = document.getElementById('totals-problem');
    expect(shown).not.toBeNull();
    return shown!;
  });
  expect(alert.getAttribute('role')).toBe('alert');
  // In place of the totals, right after them in the summary.
  expect(alert.previousElementSibling?.matches('[data-totals]')).toBe(true);
  const beside = document.querySelector('fieldset > .totals-problem');
  // Under the address fields, before 'Validate Address'.
  expect(beside?.nextElementSibling?.matches('.address-check')).toBe(true);
  return { inSummary: alert.textContent ?? '', besideAddress: beside?.firstChild?.textContent ?? '' };
}

/** No toast stands in for it: nothing is drawn in the toast region at all. */
function expectNoToast(): void {
  expect(document.querySelector('[data-toasts] [data-toast]')).toBeNull();
  expect(document.querySelector('.toast-error')).toBeNull();
}

describe('the checkout totals', () => {
  it("show the server's reason when it refuses the totals, where the totals would be and beside the address", async () => {
    totalsAnswer = () => Response.json({ message: 'The code STORYTIME-20 has expired.' }, { status: 400 });
    initCheckoutTotals();
    expect(await failureShown()).toEqual({
      inSummary: 'The code STORYTIME-20 has expired.',
      besideAddress: 'The code STORYTIME-20 has expired.',
    });
    expectNoToast();
  });

  it('say "Failed to calculate shipping and tax" when the server fails, and tell the Pay button to wait', async () => {
    totalsAnswer = () => Response.json({ message: 'Something went wrong. Please try again.' }, { status: 500 });
    const failed: unknown[] = [];
    document.addEventListener(TOTALS_FAILED_EVENT, (e) => failed.push((e as CustomEvent<string>).detail));
    initCheckoutTotals();
    expect(await failureShown()).toEqual({
      inSummary: 'Failed to calculate shipping and tax',
      besideAddress: 'Failed to calculate shipping and tax',
    });
    expect(failed).toEqual(['Failed to calculate shipping and tax']);
    expectNoToast();
  });

  it('take older totals away when new ones cannot be worked out, and bring them back when asked again', async () => {
    totalsAnswer = () => Response.json(PORTLAND_ANSWER);
    const seen: Array<string | null> = [];
    document.addEventListener(TOTALS_EVENT, (e) => seen.push((e as CustomEvent<{ total: string } | null>).detail?.total ?? null));
    initCheckoutTotals();
    await vi.waitFor(() => expect(document.querySelector('[data-total="total"]')?.textContent).toBe('$27.48'));

    totalsAnswer = () => Response.json({ message: 'Something went wrong. Please try again.' }, { status: 500 });
    const zip = document.querySelector<HTMLInputElement>('[name="zipCode"]')!;
    zip.value = '97201';
    zip.dispatchEvent(new Event('input', { bubbles: true }));
    await failureShown();
    // The $27.48 was for another ZIP code: neither the summary nor the Pay button keeps it.
    for (const key of ['shipping', 'handling', 'tax', 'total']) {
      const cell = document.querySelector<HTMLElement>(`[data-total="${key}"]`)!;
      expect(cell.hidden, key).toBe(true);
      expect(cell.textContent, key).not.toBe('$27.48');
      expect((cell.previousElementSibling as HTMLElement).hidden, key).toBe(true);
    }
    expect(document.querySelector<HTMLElement>('[data-total="subtotal"]')?.hidden).toBe(false);
    expect(seen).toEqual(['27.48', null]);

    totalsAnswer = () => Response.json(PORTLAND_ANSWER);
    const again = document.querySelector<HTMLButtonElement>('.totals-problem button')!;
    expect(again.textContent).toBe('Try again');
    again.focus();
    again.click();
    await vi.waitFor(() => expect(document.querySelector('[data-total="total"]')?.textContent).toBe('$27.48'));
    expect(document.querySelector('[data-totals-problem]')).toBeNull();
    expect(document.querySelector<HTMLElement>('[data-total="total"]')?.hidden).toBe(false);
    // The pressed button is gone: the focus goes back to the address, not to the top of the page.
    expect(document.activeElement).toBe(zip);
    expect(seen).toEqual(['27.48', null, '27.48']);
    expectNoToast();
  });
});

describe('the checkout totals when the address stops being complete', () => {
  it('go back to "Enter your address" when the ZIP code is shortened, and the Pay button forgets the old total', async () => {
    document.body.innerHTML = `
      <div data-toasts><ol></ol></div>
      <form data-checkout-form>
        <input name="address" value="1120 SW 5th Ave"><input name="city" value="Portland"><input name="zipCode" value="97205">
      </form>
      <dl><dd data-total="shipping">Enter your address</dd><dd data-total="handling">-</dd><dd data-total="tax">-</dd><dd data-total="total">-</dd></dl>`;
    totalsAnswer = () =>
      Response.json({ subtotal: '2099.00', discount: '0.00', shipping: '0.00', handling: '2.50', tax: '0.00', total: '2101.50' });
    const seen: Array<string | null> = [];
    document.addEventListener('checkout:totals', (e) => seen.push((e as CustomEvent<{ total: string } | null>).detail?.total ?? null));
    initCheckoutTotals();
    await vi.waitFor(() => expect(document.querySelector('[data-total="total"]')?.textContent).toBe('$2,101.50'));
    expect(document.querySelector('[data-total="shipping"]')?.textContent).toBe('Free');
    vi.useFakeTimers();
    const zip = document.querySelector<HTMLInputElement>('[name="zipCode"]')!;
    zip.value = '9720';
    zip.dispatchEvent(new Event('input', { bubbles: true }));
    vi.advanceTimersByTime(500);
    vi.useRealTimers();
    expect(document.querySelector('[data-total="shipping"]')?.textContent).toBe('Enter your address');
    expect(document.querySelector('[data-total="total"]')?.textContent).toBe('-');
    expect(seen).toEqual(['2101.50', null]);
  });
});
