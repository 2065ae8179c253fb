import type { Db } from '../../src/db.ts';
import { insertCustomer, insertOrder } from './admin-fixtures.ts';
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

// Paid pre-orders straight in the database, as a pre-order checkout leaves them: the order
// 'preordered', its pre-ordered lines marked, and their copies promised (books.preordered)
// rather than taken from the shelf. For tests of what happens after the sale, many at once and
// with no payment behind them (placePaidPreorder above makes one the provider can refund).

export interface PreorderLine {
  bookId: number;
  quantity: number;
  /** "12.99" */
  price?: string;
  /** false: a line bought from the shelf in the same order (its copies already taken). */
  preorder?: boolean;
}

export async function insertPreorder(
  db: Db,
  { lines, createdAt = new Date(), userId }: { lines: PreorderLine[]; createdAt?: Date; userId?: number },
): Promise<{ orderId: number; userId: number }> {
  const parent = userId ?? (await insertCustomer(db)).id;
  const titles = new Map<number, string>(
    (
      await db('books')
        .whereIn(
          'id',
          lines.map((l) => l.bookId),
        )
        .select('id', 'title')
    ).map((b: { id: number; title: string }) => [Number(b.id), b.title]),
  );
  const total = lines.reduce((cents, l) => cents + Math.round(Number(l.price ?? '12.99') * 100) * l.quantity, 0);
  const orderId = await insertOrder(db, {
    userId: parent,
    status: 'preordered',
    createdAt,
    total: (total / 100).toFixed(2),
    lines: lines.map((l) => ({
      bookId: l.bookId,
      title: titles.get(l.bookId) ?? 'A book',
      quantity: l.quantity,
      price: l.price ?? '12.99',
    })),
  });
  for (const line of lines) {
    if (line.preorder === false) continue;
    await db('orderItems').where({ orderId, bookId: line.bookId }).update({ preorder: true });
    await db('books').where({ id: line.bookId }).increment('preordered', line.quantity);
  }
  return { orderId, userId: parent };
}
