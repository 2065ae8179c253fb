import { formatUsdDecimal } from '../../src/lib/money.ts';
import { api, messageOf } from './api.ts';
import { showToast } from './toast.ts';

// The checkout summary's shipping, handling, tax and total: asked of the server once the
// address, city and a 5-digit ZIP code are filled, and again whenever they change.

export interface TotalsAnswer {
  subtotal: string;
  /** What the session's discount code takes off, "0.00" without one. */
  discount: string;
  shipping: string;
  handling: string;
  tax: string;
  total: string;
}

export const TOTALS_EVENT = 'checkout:totals';
const ZIP_READY_LENGTH = 5;

export function initCheckoutTotals(): void {
  const form = document.querySelector<HTMLFormElement>('[data-checkout-form]');
  if (!form) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = '';
  const refresh = () => {
    const shipping = readShipping(form);
    if (!shipping.address || !shipping.city || shipping.zipCode.length < ZIP_READY_LENGTH) {
      // Totals worked out for an address no longer in the form would be a promise it cannot keep.
      if (asked) clearTotals();
      asked = '';
      return;
    }
    const key = JSON.stringify(shipping);
    if (key === asked) return;
    asked = key;
    api<TotalsAnswer>('POST', '/api/calculate-totals', shipping).then(
      (totals) => showTotals(totals),
      (err: unknown) => {
        asked = '';
        showToast({ title: 'Error', text: messageOf(err, 'Failed to calculate shipping and tax'), variant: 'error' });
      },
    );
  };
  form.addEventListener('input', (event) => {
    if (!['address', 'city', 'zipCode'].includes((event.target as HTMLInputElement).name)) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  });
  refresh();
}

export function readShipping(form: HTMLFormElement): { address: string; city: string; zipCode: string } {
  const value = (name: string) => {
    const entry = new FormData(form).get(name);
    return typeof entry === 'string' ? entry.trim() : '';
  };
  return { address: value('address'), city: value('city'), zipCode: value('zipCode') };
}

/** Back to what the page said before any address: shipping, tax and the total wait for one. */
function clearTotals(): void {
  for (const [key, text] of [
    ['shipping', 'Enter your address'],
    ['handling', '-'],
    ['tax', '-'],
    ['total', '-'],
  ] as const) {
    const cell = document.querySelector<HTMLElement>(`[data-total="${key}"]`);
    if (cell) cell.textContent = text;
  }
  document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: null }));
}

export function showTotals(totals: TotalsAnswer): void {
  for (const key of ['subtotal', 'discount', 'shipping', 'handling', 'tax', 'total'] as const) {
    const cell = document.querySelector<HTMLElement>(`[data-total="${key}"]`);
    if (cell)
      cell.textContent =
        key === 'shipping' && totals.shipping === '0.00' ? 'Free' : `${key === 'discount' ? '-' : ''}${formatUsdDecimal(totals[key])}`;
  }
  document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: totals }));
}
