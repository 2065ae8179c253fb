// The one script every page loads. It stays small: React arrives only when an
// island on the page is needed (see loader.ts).
import { mountIslands } from './loader.ts';
import { initAddressForms } from './lib/address-forms.ts';
import { initAddToCart } from './lib/add-to-cart.ts';
import { initDialogs } from './lib/dialogs.ts';
import { initFormProblems } from './lib/form-problems.ts';
import { initPrint } from './lib/print.ts';
import { initShare } from './lib/share.ts';
import { initTabs } from './lib/tabs.ts';
import { initToasts } from './lib/toast.ts';

initToasts();
initFormProblems();
initShare();
initPrint();
initTabs();
initDialogs();
initAddToCart();
initAddressForms();
mountIslands();

// Behaviour only a form or two has is fetched on the pages that have it, so the pages a parent
// browses do not carry it.
const pageOnly: [selector: string, load: () => Promise<unknown>][] = [
  ['[data-checkout-form]', () => import('./lib/checkout-totals.ts').then((m) => m.initCheckoutTotals())],
  ['[data-counter-max]', () => import('./lib/character-counter.ts').then((m) => m.initCharacterCounters())],
  ['form[data-validate="reset"]', () => import('./lib/reset-dialog.ts').then((m) => m.initResetDialog())],
];
for (const [selector, load] of pageOnly) if (document.querySelector(selector)) void load();
