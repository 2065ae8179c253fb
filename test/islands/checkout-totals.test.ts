// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initCheckoutTotals } from '../../islands/lib/checkout-totals.ts';

// The checkout summary asks the server for its totals once the address is filled. When the
// server refuses (a discount code that expired while the page was open, say), the parent reads
// the server's reason; when the server fails, the spec's general message.

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
