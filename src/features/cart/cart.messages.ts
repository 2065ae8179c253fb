// The cart's toasts, word for word (docs/architecture.md, "Words parents see"). Shared by the pages and the islands.
export const CART_TOASTS = {
  added: { title: 'Added to cart', text: 'Book has been added to your cart' },
  addedFromBookPage: (title: string) => ({ title: 'Added to Cart!', text: `${title} has been added to your cart.` }),
  addFailed: { title: 'Error', text: 'Failed to add book to cart' },
  addFailedFromBookPage: { title: 'Error', text: 'Failed to add item to cart' },
  updateFailed: { title: 'Error', text: 'Failed to update cart' },
  removed: { title: 'Removed from cart', text: 'Book has been removed from your cart' },
  removeFailed: { title: 'Error', text: 'Failed to remove book from cart' },
  cleared: { title: 'Cart cleared', text: 'All items have been removed from your cart' },
  clearFailed: { title: 'Error', text: 'Failed to clear cart' },
} as const;

export const CART_EMPTY_TEXT = 'Your cart is empty. Add some books to get started!';
