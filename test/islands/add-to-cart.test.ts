// @vitest-environment happy-dom
import { Eta } from 'eta';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initAddToCart } from '../../islands/lib/add-to-cart.ts';
import { refusal } from '../../src/web/form-problems.ts';
import { VIEWS_DIR } from '../../src/web/views.ts';

// Add to Cart with script, on the book page and on a catalogue card. A toast says the book was
// added; a refusal is told on the form that was sent: the book page's as the page draws it
// without JavaScript (its summary, the reason beside the quantity), a card's beside its button.

let answer: () => Response;

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    if (key === 'GET /api/session') return Response.json({ csrfToken: 't' });
    if (key === 'POST /api/cart') return answer();
    if (key === 'GET /api/cart') return Response.json([]);
    throw new Error(`unexpected ${key}`);
  });
  document.body.innerHTML = `
    <div data-toasts><ol></ol></div>
    <form method="post" action="/cart" class="add-to-cart" id="add-to-cart-7" data-add-to-cart data-book-id="7" data-book-title="Pip and the Moon Garden">
      <div class="quantity-row">
        <label for="quantity">Quantity</label>
        <select id="quantity" name="quantity"><option value="1">1</option><option value="3" selected>3</option></select>
      </div>
      <button type="submit">Add to Cart</button>
    </form>
    <form method="post" action="/cart" class="book-card-buy" data-add-to-cart-card data-book-id="8">
      <p class="book-card-price">$16.99</p>
      <button type="submit" class="add-button" aria-label="Add to Cart: Owl Counts the Stars">Add to Cart</button>
    </form>`;
  initAddToCart();
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const bookForm = () => document.getElementById('add-to-cart-7') as HTMLFormElement;
const cardForm = () => document.querySelector<HTMLFormElement>('[data-add-to-cart-card]')!;
const send = (form: HTMLFormElement) => form.dispatchEvent(new Event('submit', { cancelable: true }));
const refused =
  (message: string, status = 409) =>
  () =>
    Response.json({ message }, { status });

function expectNoToast(): void {
  expect(document.querySelector('[data-toasts] [data-toast]')).toBeNull();
  expect(document.querySelector('.toast-error')).toBeNull();
}

describe('Add to Cart on the book page', () => {
  it("tells a refusal in the form's summary, which takes the focus, and beside the quantity; no toast", async () => {
    answer = refused('Only 2 copies of "Pip and the Moon Garden" are available.');
    send(bookForm());
    const summary = await vi.waitFor(() => {
      const shown = bookForm().querySelector<HTMLElement>(':scope > [data-form-problems]');
      expect(shown).not.toBeNull();
      return shown!;
    });
    expect(summary.getAttribute('role')).toBe('alert');
    expect(summary.id).toBe('add-to-cart-7-problems');
    expect(document.activeElement).toBe(summary);
    expect(summary.querySelector('h2')?.textContent).toBe('Failed to add item to cart');
    expect(summary.querySelector('a[href="#quantity"]')?.textContent).toBe('Only 2 copies of "Pip and the Moon Garden" are available.');
    const quantity = document.getElementById('quantity') as HTMLSelectElement;
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    expect(quantity.getAttribute('aria-describedby')).toBe('quantity-error');
    expect(document.getElementById('quantity-error')?.textContent).toBe('Only 2 copies of "Pip and the Moon Garden" are available.');
    // What was chosen stays.
    expect(quantity.value).toBe('3');
    expectNoToast();
  });

  it('draws what the page draws without JavaScript', async () => {
    answer = refused('Up to 50 copies of each book per order.');
    send(bookForm());
    const fromScript = await vi.waitFor(() => {
      const shown = bookForm().querySelector('[data-form-problems]');
      expect(shown).not.toBeNull();
      return shown!;
    });
    const eta = new Eta({ views: VIEWS_DIR, autoTrim: false });
    const server = document.createElement('div');
    const problems = refusal({
      form: 'add-to-cart-7',
      title: 'Failed to add item to cart',
      problems: [{ field: 'quantity', message: 'Up to 50 copies of each book per order.' }],
      ids: { quantity: 'quantity' },
    });
    server.innerHTML =
      eta.render('partials/form-problems', { problems, form: 'add-to-cart-7' }) +
      eta.render('partials/field-problem', { problems, id: 'quantity' });
    const fromServer = server.querySelector('[data-form-problems]')!;
    for (const attribute of ['id', 'class', 'role', 'tabindex', 'aria-labelledby']) {
      expect(fromScript.getAttribute(attribute), attribute).toBe(fromServer.getAttribute(attribute));
    }
    expect(fromScript.querySelector('ul')?.innerHTML.trim()).toBe(fromServer.querySelector('ul')?.innerHTML.trim());
    expect(document.getElementById('quantity-error')?.className).toBe(server.querySelector('#quantity-error')?.className);
  });

  it("says 'Failed to add item to cart' when the server fails, and the next add that goes through clears it with its toast", async () => {
    answer = refused('Something went wrong. Please try again.', 500);
    send(bookForm());
    await vi.waitFor(() => expect(document.getElementById('quantity-error')?.textContent).toBe('Failed to add item to cart'));
    expectNoToast();

    answer = () => Response.json({ items: [] }, { status: 201 });
    send(bookForm());
    await vi.waitFor(() => expect(document.querySelector('[data-toasts] .toast-title')?.textContent).toBe('Added to Cart!'));
    expect(document.querySelector('.toast-text')?.textContent).toBe('Pip and the Moon Garden has been added to your cart.');
    expect(bookForm().querySelector('[data-form-problems], .field-error')).toBeNull();
    expect(document.getElementById('quantity')?.hasAttribute('aria-invalid')).toBe(false);
    expect(document.querySelector('.toast-error')).toBeNull();
  });
});

describe('Add to Cart on a catalogue card', () => {
  it('tells a refusal beside the button, announced and read with it; the focus stays on the button; no toast', async () => {
    answer = refused('Sorry, "Owl Counts the Stars" is sold out right now.');
    const button = cardForm().querySelector('button')!;
    button.focus();
    send(cardForm());
    const message = await vi.waitFor(() => {
      const shown = cardForm().querySelector<HTMLElement>('.field-error');
      expect(shown).not.toBeNull();
      return shown!;
    });
    expect(message.getAttribute('role')).toBe('alert');
    expect(message.textContent).toBe('Sorry, "Owl Counts the Stars" is sold out right now.');
    expect(message.previousElementSibling).toBe(button);
    expect(button.getAttribute('aria-describedby')).toBe(message.id);
    // A button is described, not marked as a wrong value.
    expect(button.hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe(button);
    expectNoToast();

    answer = () => Response.json({ items: [] }, { status: 201 });
    send(cardForm());
    await vi.waitFor(() => expect(document.querySelector('[data-toasts] .toast-title')?.textContent).toBe('Added to cart'));
    expect(cardForm().querySelector('.field-error')).toBeNull();
    expect(button.hasAttribute('aria-describedby')).toBe(false);
  });

  it("says 'Failed to add book to cart' when the connection drops", async () => {
    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    send(cardForm());
    await vi.waitFor(() => expect(cardForm().querySelector('.field-error')?.textContent).toBe('Failed to add book to cart'));
    expectNoToast();
  });
});
