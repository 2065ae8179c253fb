// The one script every page loads. It stays small: React arrives only when an
// island on the page is needed (see loader.ts).
import { mountIslands } from './loader.ts';
import { initAddressForms } from './lib/address-forms.ts';
import { initAddToCart } from './lib/add-to-cart.ts';
import { initCharacterCounters } from './lib/character-counter.ts';
import { initCheckoutTotals } from './lib/checkout-totals.ts';
import { initDialogs } from './lib/dialogs.ts';
import { initFormProblems } from './lib/form-problems.ts';
import { initPrint } from './lib/print.ts';
import { initResetDialog } from './lib/reset-dialog.ts';
import { initShare } from './lib/share.ts';
import { initTabs } from './lib/tabs.ts';
import { initToasts } from './lib/toast.ts';

initToasts();
initFormProblems();
initShare();
initPrint();
initTabs();
initDialogs();
initResetDialog();
initAddToCart();
initAddressForms();
initCharacterCounters();
initCheckoutTotals();
mountIslands();
