// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CartDrawer } from '../../islands/cart-drawer/CartDrawer.tsx';

// The drawer talks to /api through fetch; here fetch answers like the shop's cart API
// (the real API is exercised in test/features/cart and the browser journeys).
function book(id: number, inStock = 20) {
  return {
    id,
    title: `Book ${id}`,
    author: 'A',
    description: 'D',
    price: '10.00',
    priceCents: 1000,
    imageUrl: null,
    cover: { src: '/images/placeholder-cover.svg', srcset: null, width: 600, height: 900 },
    inStock,
    amazonUrl: null,
    amazonKindleUrl: null,
    ageRange: '3-5',
    pages: 32,
    publishedOn: '2024-01-01',
  };
}

let lines: Array<{ id: number; bookId: number; quantity: number; book: ReturnType<typeof book> }>;
let calls: Array<{ method: string; url: string; body?: unknown }>;
let hold: Promise<void> | undefined;
/** The cart API's answer to the next change instead of making it (a refusal, an outage). */
let refuse: (() => Response) | undefined;

beforeEach(() => {
  lines = [{ id: 1, bookId: 7, quantity: 1, book: book(7) }];
  calls = [];
  hold = undefined;
  refuse = undefined;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    if (url === '/api/session') return Response.json({ csrfToken: 't' });
    if (method !== 'GET' && hold) await hold;
    if (method !== 'GET' && refuse) return refuse();
    if (method === 'DELETE' && url === '/api/cart') lines = [];
    else if (method === 'DELETE') lines = lines.filter((l) => `/api/cart/${l.bookId}` !== url);
    else if (method === 'PUT') lines = lines.map((l) => (`/api/cart/${l.bookId}` === url ? { ...l, quantity: body.quantity } : l));
    return Response.json(lines);
  });
  document.body.innerHTML = '<div data-toasts><ol></ol></div>';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openDrawer() {
  render(<CartDrawer signedIn={false} />);
  fireEvent.click(screen.getByRole('button', { name: /Shopping cart/ }));
  await screen.findByRole('dialog');
  await screen.findByText('Book 7');
}

describe('cart drawer', () => {
  it('removes the line when minus is pressed at quantity 1', async () => {
    await openDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Book 7' }));
    await screen.findByText('Your cart is empty. Add some books to get started!');
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/cart/7')).toBe(true);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('keeps the focus in the drawer when the pressed control goes away with its line', async () => {
    await openDrawer();
    const minus = screen.getByRole('button', { name: 'Remove Book 7' });
    minus.focus();
    fireEvent.click(minus);
    await screen.findByText('Your cart is empty. Add some books to get started!');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Close cart'));
  });

  it('changes the quantity by one with plus, then refetches the cart', async () => {
    await openDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'One more Book 7' }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Quantity of Book 7' }).textContent).toContain('2'));
    const put = calls.findIndex((c) => c.method === 'PUT');
    expect(calls[put]?.body).toEqual({ quantity: 2 });
    expect(calls.slice(put + 1).some((c) => c.method === 'GET' && c.url === '/api/cart')).toBe(true);
  });

  it('disables every control while a change is pending', async () => {
    await openDrawer();
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    fireEvent.click(screen.getByRole('button', { name: 'One more Book 7' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'One more Book 7' }).getAttribute('aria-disabled')).toBe('true'));
    expect(screen.getByRole('button', { name: 'Remove Book 7' }).getAttribute('aria-disabled')).toBe('true');
    // Off, yet focusable: a press while busy changes nothing.
    const puts = calls.filter((c) => c.method === 'PUT').length;
    fireEvent.click(screen.getByRole('button', { name: 'One more Book 7' }));
    expect(calls.filter((c) => c.method === 'PUT').length).toBe(puts);
    expect(screen.getByRole('button', { name: 'Clear Cart' })).toHaveProperty('disabled', true);
    await act(async () => release());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Clear Cart' })).toHaveProperty('disabled', false));
  });

  it('disables plus at 50 copies of a title even with more in stock, and says why', async () => {
    lines = [{ id: 1, bookId: 7, quantity: 49, book: book(7, 500) }];
    await openDrawer();
    expect(screen.getByRole('button', { name: 'One more Book 7' }).getAttribute('aria-disabled')).toBeNull();
    expect(screen.getByText('Up to 50 copies of each book per order.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'One more Book 7' }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Quantity of Book 7' }).textContent).toContain('50'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'One more Book 7' }).getAttribute('aria-disabled')).toBe('true'));
  });

  it('disables plus at the last copy in stock and says why, on the button and beside it', async () => {
    lines = [{ id: 1, bookId: 7, quantity: 2, book: book(7, 2) }];
    await openDrawer();
    const plus = screen.getByRole('button', { name: 'One more Book 7' });
    expect(plus.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Only 2 in stock')).toBeTruthy();
    const describedBy = plus.getAttribute('aria-describedby');
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe('Only 2 in stock');
  });

  it('says nothing about the limit while plus still works', async () => {
    lines = [{ id: 1, bookId: 7, quantity: 1, book: book(7, 2) }];
    await openDrawer();
    expect(screen.getByRole('button', { name: 'One more Book 7' }).getAttribute('aria-disabled')).toBeNull();
    expect(screen.queryByText(/in stock/)).toBeNull();
  });

  it("shows '99+' on the badge above 99 copies and the exact count in the drawer", async () => {
    lines = [{ id: 1, bookId: 7, quantity: 120, book: book(7, 500) }];
    await openDrawer();
    expect(document.querySelector('[data-cart-badge]')?.textContent).toBe('99+');
    expect(screen.getByText('120 item(s)')).toBeTruthy();
  });

  it('shows the total with two decimals and sends visitors to /simple-checkout', async () => {
    lines = [{ id: 1, bookId: 7, quantity: 3, book: book(7) }];
    await openDrawer();
    expect(document.querySelector('.cart-total strong')?.textContent).toBe('$30.00');
    // The line says what its three copies come to, beside the price of one.
    expect(document.querySelector('.cart-line-price')?.textContent).toBe('$10.00');
    expect(document.querySelector('.cart-line-total')?.textContent).toBe('3 × $10.00 = $30.00');
    expect(screen.getByRole('button', { name: 'Proceed to Checkout' }).getAttribute('href')).toBe('/simple-checkout');
  });

  it('writes amounts of a thousand dollars and more with a thousands separator', async () => {
    lines = [{ id: 1, bookId: 7, quantity: 120, book: book(7, 500) }];
    await openDrawer();
    expect(document.querySelector('.cart-total strong')?.textContent).toBe(
      `$${(Number(lines[0]!.book.price) * 120).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    expect(document.querySelector('.cart-total strong')?.textContent).toMatch(/^\$\d{1,3}(,\d{3})+\.\d\d$/);
  });

  it('closes on Escape and gives focus back to the cart button', async () => {
    await openDrawer();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close cart');
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement?.getAttribute('aria-haspopup')).toBe('dialog');
  });
});

describe('a refused cart change in the drawer', () => {
  const noToast = () => {
    expect(document.querySelector('[data-toasts] [data-toast]')).toBeNull();
    expect(document.querySelector('.toast-error')).toBeNull();
  };

  it("tells the server's reason beside the line, announced and read with the line's controls; no toast", async () => {
    lines = [{ id: 1, bookId: 7, quantity: 1, book: book(7, 5) }];
    await openDrawer();
    refuse = () => Response.json({ message: 'Only 1 copy of "Book 7" is available.' }, { status: 409 });
    const plus = screen.getByRole('button', { name: 'One more Book 7' });
    plus.focus();
    fireEvent.click(plus);
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe('Only 1 copy of "Book 7" is available.');
    expect(message.closest('li.cart-line')?.textContent).toContain('Book 7');
    for (const name of ['One more Book 7', 'Remove Book 7', 'Remove Book 7 from cart']) {
      const control = screen.getByRole('button', { name });
      expect(control.getAttribute('aria-describedby')?.split(' '), name).toContain(message.id);
    }
    // The parent is still where they pressed.
    expect(document.activeElement).toBe(plus);
    noToast();

    // The next change that goes through takes the message away.
    refuse = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'One more Book 7' }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Quantity of Book 7' }).textContent).toContain('2'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Book 7 from cart' }).hasAttribute('aria-describedby')).toBe(false);
  });

  it("says 'Failed to remove book from cart' beside the line when the server fails", async () => {
    await openDrawer();
    refuse = () => Response.json({ message: 'Something went wrong. Please try again.' }, { status: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Book 7 from cart' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe('Failed to remove book from cart');
    expect(message.closest('li.cart-line')).not.toBeNull();
    expect(screen.getByText('Book 7')).toBeTruthy();
    noToast();
  });

  it("says 'Failed to clear cart' beside Clear Cart", async () => {
    await openDrawer();
    refuse = () => Response.json({ message: 'Something went wrong. Please try again.' }, { status: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Clear Cart' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe('Failed to clear cart');
    expect(screen.getByRole('button', { name: 'Clear Cart' }).getAttribute('aria-describedby')).toBe(message.id);
    noToast();
  });

  it('still confirms a change that went through with a toast', async () => {
    await openDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Book 7 from cart' }));
    await waitFor(() => expect(document.querySelector('[data-toasts] .toast-title')?.textContent).toBe('Removed from cart'));
    expect(document.querySelector('.toast-error')).toBeNull();
  });
});
