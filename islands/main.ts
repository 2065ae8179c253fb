// The one script every page loads. It stays small: React arrives only when an
// island on the page is needed (see loader.ts).
import { afterFirstPaint, mountIslands } from './loader.ts';
import { initAddressForms } from './lib/address-forms.ts';
import { initAddToCart } from './lib/add-to-cart.ts';
import { initDialogs } from './lib/dialogs.ts';
import { initFormProblems } from './lib/form-problems.ts';
import { initResetDialog } from './lib/reset-dialog.ts';
import { initShare } from './lib/share.ts';
import { initToasts } from './lib/toast.ts';

initToasts();
initFormProblems();
initShare();
initDialogs();
initResetDialog();
initAddToCart();
initAddressForms();
mountIslands();

// What only a page or two has is fetched there alone, after its first paint as the islands are,
// so the pages a parent browses do not carry it: the checkout's totals and its gift note's counter
// (each reads what was typed meanwhile when it starts), the sign-in page's and the dashboard's tabs
// (links to each tab's own page until then) and the packing slips' Print button.
const pageOnly: [selector: string, load: () => Promise<unknown>][] = [
  ['[data-checkout-form]', () => import('./lib/checkout-totals.ts').then((m) => m.initCheckoutTotals())],
  ['[data-counter-max]', () => import('./lib/character-counter.ts').then((m) => m.initCharacterCounters())],
  ['[data-tabs]', () => import('./lib/tabs.ts').then((m) => m.initTabs())],
  ['[data-print]', () => import('./lib/print.ts').then((m) => m.initPrint())],
];
for (const [selector, load] of pageOnly) if (document.querySelector(selector)) afterFirstPaint(() => void load());
