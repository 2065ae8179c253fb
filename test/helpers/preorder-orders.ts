import type { Db } from '../../src/db.ts';
import { insertCustomer, insertOrder } from './admin-fixtures.ts';

// Paid pre-orders straight in the database, as a pre-order checkout leaves them: the order
// 'preordered', its pre-ordered lines marked, and their copies promised (books.preordered)
// rather than taken from the shelf. For tests of what happens after the sale, many at once.

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
