import { isUniqueViolation } from '../../lib/unique-violation.ts';
import { isMySql, type Db } from '../../db.ts';
import { CartItem } from '../../models/CartItem.ts';

// Cart lines change in single statements, never read-then-write: on MariaDB two requests
// that read the same quantity would each write their own sum and one addition would be lost.
// Each function runs outside a transaction so that no lock outlives its statement.

/**
 * Adds `quantity` copies to a cart's line of a book, unless the line would pass `limit`.
 * Answers whether the copies were added.
 */
export async function addToLine(db: Db, cartId: number, bookId: number, quantity: number, limit: number): Promise<boolean> {
  if (await increment(db, cartId, bookId, quantity, limit)) return true;
  if (quantity > limit) return false;
  try {
    await CartItem.query(db).insert({ cartId, bookId, quantity });
    return true;
  } catch (err) {
    // The line was there after all (at its limit, or made just now by another request).
    if (!isUniqueViolation(err)) throw err;
    return increment(db, cartId, bookId, quantity, limit);
  }
}

async function increment(db: Db, cartId: number, bookId: number, quantity: number, limit: number): Promise<boolean> {
  const changed = await db('cart_items')
    .where({ cartId, bookId })
    .andWhereRaw('?? + ? <= ?', ['quantity', quantity, limit])
    .update({ quantity: db.raw('?? + ?', ['quantity', quantity]) });
  return changed > 0;
}

/** Sets an existing line's quantity; answers whether the line was there. */
export async function setLine(db: Db, cartId: number, bookId: number, quantity: number): Promise<boolean> {
  return (await db('cart_items').where({ cartId, bookId }).update({ quantity })) > 0;
}

/**
 * Adds copies to a line, or makes it, in one upsert that caps the sum at `limit` rather than
 * refusing: what merging a visitor's cart at sign-in does.
 */
export async function addToLineCapped(db: Db, cartId: number, bookId: number, quantity: number, limit: number): Promise<void> {
  const first = Math.min(quantity, limit);
  if (first < 1) return;
  const upsert = isMySql(db)
    ? 'insert into cart_items (cart_id, book_id, quantity) values (?, ?, ?) on duplicate key update quantity = least(quantity + values(quantity), ?)'
    : 'insert into cart_items (cart_id, book_id, quantity) values (?, ?, ?) on conflict (cart_id, book_id) do update set quantity = min(quantity + excluded.quantity, ?)';
  await db.raw(upsert, [cartId, bookId, first, limit]);
}
