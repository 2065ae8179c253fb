import { CART_TOASTS } from '../../src/features/cart/cart.messages.ts';
import { ApiError } from './api.ts';
import { addToCart } from './cart-store.ts';
import { showToast } from './toast.ts';

// Add to Cart without a page load: the book page's form and the catalogue cards' forms,
// which both still post without JavaScript.
export function initAddToCart(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-add-to-cart]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const quantity = Number(new FormData(form).get('quantity') ?? 1);
      void add(form.querySelector('button[type="submit"]'), Number(form.dataset.bookId), quantity, {
        success: CART_TOASTS.addedFromBookPage(form.dataset.bookTitle ?? 'This book'),
        failure: CART_TOASTS.addFailedFromBookPage,
      });
    });
  }
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-add-to-cart-card]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void add(form.querySelector('button[type="submit"]'), Number(form.dataset.bookId), 1, {
        success: CART_TOASTS.added,
        failure: CART_TOASTS.addFailed,
      });
    });
  }
}

type Toast = { title: string; text: string };

async function add(
  button: HTMLButtonElement | null,
  bookId: number,
  quantity: number,
  toasts: { success: Toast; failure: Toast },
): Promise<void> {
  // Busy rather than disabled: a disabled button throws the keyboard focus back to the top of the page.
  if (button?.getAttribute('aria-busy') === 'true') return;
  button?.setAttribute('aria-busy', 'true');
  try {
    await addToCart(bookId, quantity);
    showToast(toasts.success);
  } catch (err) {
    const text = err instanceof ApiError && err.status < 500 && err.serverMessage ? err.serverMessage : toasts.failure.text;
    showToast({ title: toasts.failure.title, text, variant: 'error' });
  } finally {
    button?.removeAttribute('aria-busy');
  }
}
