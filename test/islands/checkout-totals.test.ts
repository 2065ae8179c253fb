// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initCheckoutTotals } from '../../islands/lib/checkout-totals.ts';

// The checkout summary asks the server for its totals once the address is filled. When the
// server refuses (a discount code that expired while the page was open, say), the parent reads
// the server's reason; when the server fails, the general message.

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
      <input name="address" value="1120 SW 5th Ave"><input name="city" value="Portland"><input name="zipCode" value="97205">
    </form>`;
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

async function toastShown(): Promise<{ title: string; text: string }> {
  await vi.waitFor(() => expect(document.querySelector('[data-toast]')).not.toBeNull());
  return {
    title: document.querySelector('.toast-title')?.textContent ?? '',
    text: document.querySelector('.toast-text')?.textContent ?? '',
  };
}

describe('the checkout totals', () => {
  it("show the server's reason when it refuses the totals", async () => {
    totalsAnswer = () => Response.json({ message: 'The code STORYTIME-20 has expired.' }, { status: 400 });
    initCheckoutTotals();
    expect(await toastShown()).toEqual({ title: 'Error', text: 'The code STORYTIME-20 has expired.' });
  });

  it('say "Failed to calculate shipping and tax" when the server fails', async () => {
    totalsAnswer = () => Response.json({ message: 'Something went wrong. Please try again.' }, { status: 500 });
    initCheckoutTotals();
    expect(await toastShown()).toEqual({ title: 'Error', text: 'Failed to calculate shipping and tax' });
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
