// The one script every page loads. It stays small: React arrives only when an
// island on the page is needed (see loader.ts).
import { mountIslands } from './loader.ts';
import { initAddToCart } from './lib/add-to-cart.ts';
import { initShare } from './lib/share.ts';
import { initToasts } from './lib/toast.ts';

initToasts();
initShare();
initAddToCart();
mountIslands();
