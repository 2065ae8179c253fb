import { CART_TOASTS } from '../../src/features/cart/cart.messages.ts';
import { messageOf } from './api.ts';
import { addToCart } from './cart-store.ts';
import { clearProblems, showButtonProblem, showProblems } from './form-problems.ts';
import { showToast } from './toast.ts';

// Add to Cart without a page load: the book page's form and the catalogue cards' forms,
// which both still post without JavaScript. A toast says the book was added; a refusal (sold
// out, too many copies) is told on the form that was sent, as every form tells one.
export function initAddToCart(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-add-to-cart]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const quantity = Number(new FormData(form).get('quantity') ?? 1);
      void add(form, Number(form.dataset.bookId), quantity, {
        success: CART_TOASTS.addedFromBookPage(form.dataset.bookTitle ?? 'This book'),
        failure: CART_TOASTS.addFailedFromBookPage.text,
        // As the page is drawn without JavaScript: the summary first in the form, the reason beside the quantity.
        refused: (message) =>
          showProblems(
            form,
            { title: CART_TOASTS.addFailedFromBookPage.text, problems: [{ field: 'quantity', message }] },
            { quantity: 'quantity' },
          ),
      });
    });
  }
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-add-to-cart-card]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void add(form, Number(form.dataset.bookId), 1, {
        success: CART_TOASTS.added,
        failure: CART_TOASTS.addFailed.text,
        // A card has no field to fault and no room for a summary: the reason goes beside its button.
        refused: (message, button) => button && showButtonProblem(form, button, message),
      });
    });
  }
}

interface Outcomes {
  success: { title: string; text: string };
  /** Said when the server gives no reason of its own (a 5xx, no connection). */
  failure: string;
  refused: (message: string, button: HTMLButtonElement | null) => void;
}

async function add(form: HTMLFormElement, bookId: number, quantity: number, { success, failure, refused }: Outcomes): Promise<void> {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  // Busy rather than disabled: a disabled button throws the keyboard focus back to the top of the page.
  if (button?.getAttribute('aria-busy') === 'true') return;
  button?.setAttribute('aria-busy', 'true');
  try {
    await addToCart(bookId, quantity);
    clearProblems(form);
    showToast(success);
  } catch (err) {
    refused(messageOf(err, failure), button);
  } finally {
    button?.removeAttribute('aria-busy');
  }
}
