// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CartDrawer } from '../../islands/cart-drawer/CartDrawer.tsx';
import { shipsTogetherSentence } from '../../src/features/catalog/preorder.rules.ts';

// The drawer with pre-orders in the cart: fetch answers like the shop's cart API (the real API
// is exercised in test/features/cart/cart.preorders.test.ts).
function book(id: number, facts: { inStock?: number; preorderCopiesLeft?: number | null; publishedOn?: string } = {}) {
  return {
    id,
    title: `Book ${id}`,
    author: 'A',
    description: 'D',
    price: '10.00',
    priceCents: 1000,
    imageUrl: null,
    cover: { src: '/images/placeholder-cover.svg', srcset: null, width: 600, height: 900 },
    inStock: facts.inStock ?? 0,
    takesPreorders: true,
    preorderCopiesLeft: facts.preorderCopiesLeft === undefined ? null : facts.preorderCopiesLeft,
    amazonUrl: null,
    amazonKindleUrl: null,
    ageRange: '3-5',
    pages: 32,
    publishedOn: facts.publishedOn ?? '2024-01-01',
  };
}

type Line = { id: number; bookId: number; quantity: number; book: ReturnType<typeof book>; preorder: boolean; outOn: string | null };
let lines: Line[];

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string) => (url === '/api/session' ? Response.json({ csrfToken: 't' }) : Response.json(lines)));
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
  await screen.findByText(lines[0]!.book.title);
}

const preorderLine = (id: number, outOn: string, quantity = 1, left: number | null = null): Line => ({
  id,
  bookId: id,
  quantity,
  book: book(id, { preorderCopiesLeft: left, publishedOn: outOn }),
  preorder: true,
  outOn,
});

describe('the cart drawer with pre-orders', () => {
  it('marks each pre-order line and says, before checkout, when everything ships', async () => {
    lines = [
      preorderLine(3, '2027-03-02'),
      preorderLine(4, '2027-05-11'),
      { id: 5, bookId: 5, quantity: 1, book: book(5, { inStock: 9 }), preorder: false, outOn: null },
    ];
    await openDrawer();
    expect(screen.getByText('Pre-order · out March 2, 2027')).toBeTruthy();
    expect(screen.getByText('Pre-order · out May 11, 2027')).toBeTruthy();
    expect(document.querySelectorAll('.cart-line-preorder')).toHaveLength(2);
    const note = screen.getByText(shipsTogetherSentence('2027-05-11'));
    const checkout = screen.getByRole('button', { name: 'Proceed to Checkout' });
    expect(note.compareDocumentPosition(checkout) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says nothing of pre-orders without one', async () => {
    lines = [{ id: 5, bookId: 5, quantity: 1, book: book(5, { inStock: 9 }), preorder: false, outOn: null }];
    await openDrawer();
    expect(screen.queryByText(/Pre-order/)).toBeNull();
    expect(document.querySelector('.ships-together')).toBeNull();
  });

  it('stops plus at the pre-order copies left, and says why', async () => {
    lines = [preorderLine(3, '2027-03-02', 2, 2)];
    await openDrawer();
    const plus = screen.getByRole('button', { name: 'One more Book 3' });
    expect(plus.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Only 2 pre-order copies left')).toBeTruthy();
  });

  it('a pre-order without a limit stops only at the per-title cap', async () => {
    lines = [preorderLine(3, '2027-03-02', 49, null)];
    await openDrawer();
    expect(screen.getByRole('button', { name: 'One more Book 3' }).getAttribute('aria-disabled')).toBeNull();
  });
});
