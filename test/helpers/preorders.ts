import type { TestShop } from './app.ts';
import { setStock } from './checkout.ts';
import { placePaidOrder } from './orders.ts';

/** The shop's day in the pre-order tests: every publication date below is after it. */
export const TODAY = '2026-11-28';

/**
 * A parent's paid pre-order of `quantity` copies of a forthcoming title. Paid through the real
 * checkout with the sandbox card (so the provider holds a real payment to refund), then made
 * the pre-order a pre-order checkout makes: the title forthcoming and taking pre-orders, its
 * copies promised (books.preordered) instead of taken from the shelf, the line and the order
 * a pre-order's.
 */
export async function placePaidPreorder(
  shop: TestShop,
  { bookId, quantity = 2, publishedOn = '2027-03-02' }: { bookId: number; quantity?: number; publishedOn?: string },
) {
  const book = await shop.db('books').where({ id: bookId }).first();
  await setStock(shop, bookId, Number(book.inStock) + quantity);
  const placed = await placePaidOrder(shop, { bookId, quantity });
  await shop.db.transaction(async (trx) => {
    await trx('books')
      .where({ id: bookId })
      .update({ publishedOn, takesPreorders: true, inStock: Number(book.inStock), preordered: trx.raw('preordered + ?', [quantity]) });
    await trx('orderItems').where({ orderId: placed.orderId }).update({ preorder: true });
    await trx('orders').where({ id: placed.orderId }).update({ status: 'preordered' });
  });
  const order = await shop.db('orders').where({ id: placed.orderId }).first();
  return { ...placed, paymentIntentId: order.stripePaymentIntentId as string, total: String(order.totalAmount) };
}

/** What a title has on the shelf and promised to pre-orders. */
export async function copiesOf(shop: TestShop, bookId: number): Promise<{ inStock: number; preordered: number }> {
  const book = await shop.db('books').where({ id: bookId }).first();
  return { inStock: Number(book.inStock), preordered: Number(book.preordered) };
}
