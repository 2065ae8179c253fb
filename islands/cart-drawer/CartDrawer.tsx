import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { cartBadgeText } from '../../src/features/cart/badge.ts';
import { formatUsd } from '../../src/lib/money.ts';
import { CART_EMPTY_TEXT, CART_TOASTS } from '../../src/features/cart/cart.messages.ts';
import { PER_TITLE_LIMIT_TEXT } from '../../src/features/catalog/per-title-limit.ts';
import { cartTotalCents, checkoutPath, shipsTogetherNote } from '../../src/features/cart/cart.rules.ts';
import { cartButtonLabel, clearCart, getCartState, refreshCart, removeFromCart, setQuantity, subscribe } from '../lib/cart-store.ts';
import { messageOf } from '../lib/api.ts';
import { showToast } from '../lib/toast.ts';
import { CartLine } from './CartLine.tsx';
import { useFocusTrap } from './useFocusTrap.ts';

export interface CartDrawerProps {
  signedIn: boolean;
  /** Open as soon as it mounts: the click that loaded the island asked for it. */
  openOnMount?: boolean;
}

export function CartDrawer({ signedIn, openOnMount = false }: CartDrawerProps) {
  const cart = useSyncExternalStore(subscribe, getCartState);
  const [open, setOpen] = useState(openOnMount);
  const [loadFailed, setLoadFailed] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLDivElement>(null);

  const close = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);
  useFocusTrap(drawerRef, open, close);

  // A press that removes its own line (minus at 1, Remove, Clear Cart) takes the focused button
  // with it; the focus would fall to the page behind the open drawer.
  useEffect(() => {
    const drawer = drawerRef.current;
    if (open && drawer && !drawer.contains(document.activeElement)) drawer.querySelector<HTMLElement>('.drawer-close')?.focus();
  }, [open, cart]);

  useEffect(() => {
    if (!open) return;
    setLoadFailed(false);
    refreshCart().catch(() => setLoadFailed(true));
  }, [open]);

  // A refused change is told beside what was pressed (a line, or Clear Cart), announced there,
  // the focus left where it was; a toast only ever says a change was made.
  const [problem, setProblem] = useState<{ at: number | 'clear'; message: string } | null>(null);
  useEffect(() => {
    if (!open) setProblem(null);
  }, [open]);

  const run = (
    at: number | 'clear',
    action: () => Promise<void>,
    success: { title: string; text: string } | undefined,
    failure: { title: string; text: string },
  ) => {
    setProblem(null);
    return action().then(
      () => success && showToast(success),
      (err: unknown) => setProblem({ at, message: messageOf(err, failure.text) }),
    );
  };
  const clearProblemId = 'clear-cart-error';

  const items = cart.items ?? [];
  const total = formatUsd(cartTotalCents(items));
  const shipsTogether = shipsTogetherNote(items);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="cart-button"
        data-cart-button
        aria-label={cartButtonLabel(cart.count)}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <CartIcon />
        <span className="cart-badge" data-cart-badge data-count={cart.count} hidden={cart.count === 0}>
          {cartBadgeText(cart.count)}
        </span>
      </button>
      {open &&
        createPortal(
          <>
            <div className="drawer-backdrop" onClick={close} aria-hidden="true" />
            <div ref={drawerRef} className="cart-drawer" role="dialog" aria-modal="true" aria-labelledby="cart-drawer-title">
              <header className="cart-drawer-header">
                <h2 id="cart-drawer-title">Shopping Cart</h2>
                <span className="count-badge">{cart.count} item(s)</span>
                <button type="button" className="drawer-close" aria-label="Close cart" onClick={close}>
                  &times;
                </button>
              </header>
              {loadFailed ? (
                <p className="drawer-message" role="alert">
                  Failed to fetch cart
                </p>
              ) : cart.items === undefined ? (
                <p className="drawer-message" aria-live="polite">
                  Loading your cart...
                </p>
              ) : items.length === 0 ? (
                <div className="drawer-empty">
                  <p>{CART_EMPTY_TEXT}</p>
                  <a href="/books" role="button" onClick={close}>
                    Continue Shopping
                  </a>
                </div>
              ) : (
                <>
                  <ul className="cart-lines">
                    {items.map((item) => (
                      <CartLine
                        key={item.id}
                        item={item}
                        disabled={cart.pending}
                        problem={problem?.at === item.bookId ? problem.message : null}
                        onQuantity={(quantity) =>
                          quantity < 1
                            ? void run(item.bookId, () => removeFromCart(item.bookId), CART_TOASTS.removed, CART_TOASTS.removeFailed)
                            : void run(item.bookId, () => setQuantity(item.bookId, quantity), undefined, CART_TOASTS.updateFailed)
                        }
                        onRemove={() =>
                          void run(item.bookId, () => removeFromCart(item.bookId), CART_TOASTS.removed, CART_TOASTS.removeFailed)
                        }
                      />
                    ))}
                  </ul>
                  <p className="cart-limit-note">{PER_TITLE_LIMIT_TEXT}</p>
                  <footer className="cart-drawer-footer">
                    <p className="cart-total">
                      <span>Total</span> <strong>{total}</strong>
                    </p>
                    {shipsTogether && (
                      <p className="ships-together" role="note">
                        {shipsTogether}
                      </p>
                    )}
                    <a href={checkoutPath(signedIn)} role="button" className="checkout-button" aria-disabled={cart.pending || undefined}>
                      Proceed to Checkout
                    </a>
                    <button
                      type="button"
                      className="secondary outline"
                      disabled={cart.pending}
                      aria-describedby={problem?.at === 'clear' ? clearProblemId : undefined}
                      onClick={() => void run('clear', clearCart, CART_TOASTS.cleared, CART_TOASTS.clearFailed)}
                    >
                      Clear Cart
                    </button>
                    {problem?.at === 'clear' && (
                      <small className="field-error" id={clearProblemId} role="alert">
                        {problem.message}
                      </small>
                    )}
                  </footer>
                </>
              )}
            </div>
          </>,
          document.body,
        )}
    </>
  );
}

function CartIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
      <path
        d="M3 4h2l2.4 10.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 1.9-1.4L21 8H6.2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="10" cy="20" r="1.5" fill="currentColor" />
      <circle cx="17" cy="20" r="1.5" fill="currentColor" />
    </svg>
  );
}
