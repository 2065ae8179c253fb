import { z } from 'zod';
import { wholeNumber } from '../../lib/schema-fields.ts';
import { bookId } from '../catalog/catalog.schemas.ts';

/** POST /api/cart. A userId sent by a client is dropped here: the cart is the session's. */
export const addToCart = z.object({
  bookId,
  quantity: wholeNumber('Quantity', (n) => n.min(1, 'Quantity must be at least 1').max(10_000, 'Quantity is too large')).default(1),
});

/** PUT /api/cart/:bookId. Below 1 removes the line. */
export const setQuantity = z.object({
  quantity: wholeNumber('Quantity', (n) => n.max(10_000, 'Quantity is too large')),
});

export type AddToCart = z.infer<typeof addToCart>;
