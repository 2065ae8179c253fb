import { formatUsdDecimal } from '../../src/lib/money.ts';
import { api, messageOf } from './api.ts';

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
/** The totals could not be worked out: the Pay button waits until they are (its detail: the message). */
export const TOTALS_FAILED_EVENT = 'checkout:totals-failed';
/** The message that stands in the summary in place of the totals; the Pay button is described by it. */
export const TOTALS_PROBLEM_ID = 'totals-problem';
const TOTALS_FAILED_TEXT = 'Failed to calculate shipping and tax';
const ZIP_READY_LENGTH = 5;
const WORKED_OUT = ['shipping', 'handling', 'tax', 'total'] as const;

export function initCheckoutTotals(): void {
  const form = document.querySelector<HTMLFormElement>('[data-checkout-form]');
  if (!form) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = '';
  const refresh = () => {
    const shipping = readShipping(form);
    if (!shipping.address || !shipping.city || shipping.zipCode.length < ZIP_READY_LENGTH) {
      // Totals worked out for an address no longer in the form would be a promise it cannot keep.
      if (asked || document.getElementById(TOTALS_PROBLEM_ID)) clearTotals();
      asked = '';
      return;
    }
    const key = JSON.stringify(shipping);
    if (key === asked) return;
    asked = key;
    api<TotalsAnswer>('POST', '/api/calculate-totals', shipping).then(
      (totals) => {
        // An answer for an address the parent has since changed is not theirs any more.
        if (asked === key) showTotals(totals);
      },
      (err: unknown) => {
        if (asked !== key) return;
        asked = '';
        showTotalsProblem(form, messageOf(err, TOTALS_FAILED_TEXT), refresh);
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
  clearTotalsProblem();
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
  clearTotalsProblem();
  for (const key of ['subtotal', 'discount', 'shipping', 'handling', 'tax', 'total'] as const) {
    const cell = document.querySelector<HTMLElement>(`[data-total="${key}"]`);
    if (cell)
      cell.textContent =
        key === 'shipping' && totals.shipping === '0.00' ? 'Free' : `${key === 'discount' ? '-' : ''}${formatUsdDecimal(totals[key])}`;
  }
  document.dispatchEvent(new CustomEvent(TOTALS_EVENT, { detail: totals }));
}

/**
 * Totals that could not be worked out are not shown at all (older ones would be for another
 * address): the reason stands in their place in the summary, announced, and beside the address
 * fields, where the parent is typing on a phone (the summary is above the form there), with a
 * way to ask again. The Pay button waits for totals it can charge.
 */
function showTotalsProblem(form: HTMLFormElement, message: string, retry: () => void): void {
  const askedAgain = document.activeElement?.closest('[data-totals-problem]');
  clearTotals();
  for (const key of WORKED_OUT) {
    const cell = document.querySelector<HTMLElement>(`[data-total="${key}"]`);
    if (!cell) continue;
    cell.hidden = true;
    if (cell.previousElementSibling instanceof HTMLElement) cell.previousElementSibling.hidden = true;
  }
  document
    .querySelector('[data-totals]')
    ?.after(element('p', { id: TOTALS_PROBLEM_ID, class: 'field-error', role: 'alert', 'data-totals-problem': '' }, message));

  const beside = element('p', { class: 'field-error totals-problem', 'data-totals-problem': '' }, message);
  const again = element('button', { type: 'button', class: 'secondary outline' }, 'Try again');
  again.addEventListener('click', retry);
  beside.append(' ', again);
  const zip = form.querySelector<HTMLElement>('[name="zipCode"]');
  const fieldset = zip?.closest('fieldset');
  const check = fieldset?.querySelector(':scope > .address-check');
  if (check) check.before(beside);
  else if (fieldset) fieldset.append(beside);
  else zip?.after(beside);
  // 'Try again' was pressed and is drawn anew: the focus stays on it.
  if (askedAgain) again.focus();
  document.dispatchEvent(new CustomEvent(TOTALS_FAILED_EVENT, { detail: message }));
}

function clearTotalsProblem(): void {
  const shown = [...document.querySelectorAll('[data-totals-problem]')];
  // 'Try again' answered: the focus goes back to the address it was for, not to the top of the page.
  if (shown.some((message) => message.contains(document.activeElement))) {
    document.querySelector<HTMLElement>('[data-checkout-form] [name="zipCode"]')?.focus();
  }
  for (const message of shown) message.remove();
  for (const key of WORKED_OUT) {
    const cell = document.querySelector<HTMLElement>(`[data-total="${key}"]`);
    if (!cell?.hidden) continue;
    cell.hidden = false;
    if (cell.previousElementSibling instanceof HTMLElement) cell.previousElementSibling.hidden = false;
  }
}

function element(tag: string, attributes: Record<string, string>, text: string): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  el.textContent = text;
  return el;
}
