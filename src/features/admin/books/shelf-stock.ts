import type { Knex } from 'knex';
import { Book } from '../../../models/Book.ts';
import { Conflict, NotFound } from '../../../web/errors.ts';
import { bumpCatalogueVersion } from '../../catalog/catalogue-version.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';

// What the operator's stock number means: the copies on the shelf, counting those a checkout in
// progress holds (a hold has already taken its copies out of books.in_stock, and will either
// sell them or give them back). So the shop may sell the shelf minus the held copies, and a
// shelf below the held copies is refused: those copies are promised to a paying customer.
//
// The book row is locked first (SELECT ... FOR UPDATE on MySQL; SQLite runs one writer at a
// time), and a hold is taken with an UPDATE of that same row, so no hold can be taken or
// returned between reading the holds and writing the stock.

export const stockMessages = {
  belowHeld: (held: number) =>
    `${held} ${held === 1 ? 'copy is' : 'copies are'} held by checkouts in progress, so the shelf cannot have fewer: enter ${held} or more.`,
};

/**
 * Copies on the shelf held by checkouts in progress, per book. A pre-order's hold is not one:
 * it promises a copy still to come (books.preordered) and never took one from in_stock.
 */
export async function heldCopies(trx: Knex | Knex.Transaction, bookIds: number[]): Promise<Map<number, number>> {
  if (bookIds.length === 0) return new Map();
  const rows: Array<{ bookId: number; held: number | string }> = await trx('stockHolds')
    .whereIn('bookId', bookIds)
    .where('preorder', false)
    .groupBy('bookId')
    .select('bookId')
    .sum({ held: 'quantity' });
  return new Map(rows.map((row) => [Number(row.bookId), Number(row.held)]));
}

export interface ShelfChange {
  before: { shelf: number; held: number; inStock: number };
  after: { shelf: number; held: number; inStock: number };
}

/** Sets the shelf count of a book inside the caller's transaction, with the audit entry and the catalogue version. */
export async function setShelfStock(trx: Knex.Transaction, bookId: number, shelf: number, actorId: number): Promise<ShelfChange> {
  const book = await Book.query(trx).findById(bookId).forUpdate();
  if (!book) throw new NotFound('Book not found');
  const held = (await heldCopies(trx, [bookId])).get(bookId) ?? 0;
  if (shelf < held) throw new Conflict(stockMessages.belowHeld(held));
  const before = { shelf: book.inStock + held, held, inStock: book.inStock };
  const after = { shelf, held, inStock: shelf - held };
  if (after.inStock !== before.inStock) {
    await Book.query(trx).findById(bookId).patch({ inStock: after.inStock });
    await writeAudit(trx, { actorId, action: 'book.stock', bookId, before, after });
    await bumpCatalogueVersion(trx);
  }
  return { before, after };
}
