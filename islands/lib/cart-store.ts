// The cart as the browser sees it, shared by the drawer island and the book page's
// Add to Cart. Plain TypeScript, so pages without the drawer need no React.
import { cartBadgeText } from '../../src/features/cart/badge.ts';
import type { CartItemDto } from '../../src/features/cart/cart.dto.ts';
import { cartCopies } from '../../src/features/cart/cart.rules.ts';
import { api } from './api.ts';

export type { CartItemDto };

export interface CartState {
  items: CartItemDto[] | undefined;
  count: number;
  pending: boolean;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: CartState = { items: undefined, count: initialCount(), pending: false };

export function getCartState(): CartState {
  return state;
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function update(patch: Partial<CartState>): void {
  state = { ...state, ...patch };
  if (patch.items) state.count = cartCopies(patch.items);
  renderBadge(state.count);
  for (const listener of listeners) listener();
}

export async function refreshCart(): Promise<void> {
  update({ items: await api<CartItemDto[]>('GET', '/api/cart') });
}

/** Runs one change, with every control disabled while it is pending, then refetches the cart. */
async function change(run: () => Promise<unknown>): Promise<void> {
  update({ pending: true });
  try {
    await run();
    await refreshCart();
  } finally {
    update({ pending: false });
  }
}

export const addToCart = (bookId: number, quantity = 1) => change(() => api('POST', '/api/cart', { bookId, quantity }));
export const setQuantity = (bookId: number, quantity: number) => change(() => api('PUT', `/api/cart/${bookId}`, { quantity }));
export const removeFromCart = (bookId: number) => change(() => api('DELETE', `/api/cart/${bookId}`));
export const clearCart = () => change(() => api('DELETE', '/api/cart'));

// The server rendered the badge, so the count is known before any request.
function initialCount(): number {
  if (typeof document === 'undefined') return 0;
  return Number(document.querySelector<HTMLElement>('[data-cart-badge]')?.dataset.count ?? 0);
}

function renderBadge(count: number): void {
  for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-badge]')) {
    badge.textContent = cartBadgeText(count);
    badge.dataset.count = String(count);
    badge.hidden = count === 0;
  }
  for (const button of document.querySelectorAll<HTMLElement>('[data-cart-button]')) {
    button.setAttribute('aria-label', cartButtonLabel(count));
  }
}

export function cartButtonLabel(count: number): string {
  return `Shopping cart, ${count} item${count === 1 ? '' : 's'}`;
}
