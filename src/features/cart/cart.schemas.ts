import { z } from 'zod';

const wholeNumber = (what: string) =>
  z.coerce.number({ message: `${what} must be a whole number` }).int(`${what} must be a whole number`);

export const cartBookId = wholeNumber('Book id').positive('Book id must be a positive whole number').max(2_147_483_647, 'Book id is too large');

/** POST /api/cart. A userId sent by a client is dropped here: the cart is the session's. */
export const addToCart = z.object({
  bookId: cartBookId,
  quantity: wholeNumber('Quantity').min(1, 'Quantity must be at least 1').max(10_000, 'Quantity is too large').default(1),
});

/** PUT /api/cart/:bookId. Below 1 removes the line. */
export const setQuantity = z.object({
  quantity: wholeNumber('Quantity').max(10_000, 'Quantity is too large'),
});

export type AddToCart = z.infer<typeof addToCart>;
