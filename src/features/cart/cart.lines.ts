import { isUniqueViolation } from '../../lib/unique-violation.ts';
import type { Knex } from 'knex';
import { isMySql, type Db } from '../../db.ts';
import { CartItem } from '../../models/CartItem.ts';
import { MAX_COPIES_PER_TITLE } from '../catalog/per-title-limit.ts';

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

/** A cart named by its owner, so that a statement checks the owner itself instead of a query before it. */
export type OwnedCart = { userId: number } | { visitorCartId: number };

/** The owner's cart as a subquery: `cart_id in (...)`. */
export function ownedCartIds(db: Db, owned: OwnedCart) {
  const carts = db('carts').select('id');
  return 'userId' in owned ? carts.where('user_id', owned.userId) : carts.where('id', owned.visitorCartId).whereNull('user_id');
}

/**
 * Whether a line of the book may hold `total` copies (an SQL expression with its bindings), asked
 * by the statement that changes the line, so that no count read before it can be outdated. A
 * title forthcoming on `today` that takes pre-orders draws on the copies left under its limit;
 * any other on its copies for sale, the shelf less the copies owed to pre-orders
 * (preorder.rules.ts). Never true for a book off sale. Sums, not differences: the counts are
 * unsigned on MariaDB.
 */
function roomSql(bookId: number, today: string, total: string, totalBindings: Knex.RawBinding[]): [string, Knex.RawBinding[]] {
  return [
    `(${total}) <= ? and exists (select 1 from books where books.id = ? and books.hidden = 0 and case
      when books.takes_preorders = 1 and books.published_on > ?
        then books.preorder_limit is null or books.preordered + (${total}) <= books.preorder_limit
      else books.preordered + (${total}) <= books.in_stock end)`,
    [...totalBindings, MAX_COPIES_PER_TITLE, bookId, today, ...totalBindings, ...totalBindings],
  ];
}

function changedRows(db: Db, result: unknown): number {
  return isMySql(db) ? (result as [{ affectedRows: number }])[0].affectedRows : (result as { changes: number }).changes;
}

/**
 * addToLine for a cart the session already knows; the owner and the stock are checked by the
 * statements themselves. A new line (what a book page's Add to Cart usually makes) takes one
 * statement; a line already there, two (the insert meets it, then the increment).
 * Answers false when nothing was added (no such cart, a book off sale or out of copies, a line
 * at its limit): the caller then finds out which, the slow way.
 */
export async function addToOwnedLine(db: Db, owned: OwnedCart, bookId: number, quantity: number, today: string): Promise<boolean> {
  const [room, roomBindings] = roomSql(bookId, today, '?', [quantity]);
  const [owner, ownerId] = 'userId' in owned ? ['user_id = ?', owned.userId] : ['id = ? and user_id is null', owned.visitorCartId];
  try {
    const result: unknown = await db.raw(
      `insert into cart_items (cart_id, book_id, quantity) select id, ?, ? from carts where ${owner} and ${room}`,
      [bookId, quantity, ownerId, ...roomBindings],
    );
    // Nothing inserted and no line in the way: no such cart, or more copies than a line may hold.
    return changedRows(db, result) > 0;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return incrementOwned(db, owned, bookId, quantity, today);
  }
}

async function incrementOwned(db: Db, owned: OwnedCart, bookId: number, quantity: number, today: string): Promise<boolean> {
  const [room, roomBindings] = roomSql(bookId, today, 'cart_items.quantity + ?', [quantity]);
  const changed = await db('cart_items')
    .whereIn('cart_id', ownedCartIds(db, owned))
    .where('book_id', bookId)
    .andWhereRaw(room, roomBindings)
    .update({ quantity: db.raw('?? + ?', ['quantity', quantity]) });
  return changed > 0;
}

/** Sets an existing line's quantity; answers whether the line was there. */
export async function setLine(db: Db, cartId: number, bookId: number, quantity: number): Promise<boolean> {
  return (await db('cart_items').where({ cartId, bookId }).update({ quantity })) > 0;
}

/**
 * Adds copies to a line, or makes it, in one upsert that caps the sum at `limit` rather than
 * refusing: what buying an order again does.
 */
export async function addToLineCapped(db: Db, cartId: number, bookId: number, quantity: number, limit: number): Promise<void> {
  const first = Math.min(quantity, limit);
  if (first < 1) return;
  const upsert = isMySql(db)
    ? 'insert into cart_items (cart_id, book_id, quantity) values (?, ?, ?) on duplicate key update quantity = least(quantity + values(quantity), ?)'
    : 'insert into cart_items (cart_id, book_id, quantity) values (?, ?, ?) on conflict (cart_id, book_id) do update set quantity = min(quantity + excluded.quantity, ?)';
  await db.raw(upsert, [cartId, bookId, first, limit]);
}

/**
 * Makes a line, or keeps the larger of its quantity and `quantity`, capped at `limit`, in one
 * upsert: what merging a visitor's cart at sign-in does (mergedQuantity in cart.rules.ts).
 */
export async function keepLargerLineCapped(db: Db, cartId: number, bookId: number, quantity: number, limit: number): Promise<void> {
  const first = Math.min(quantity, limit);
  if (first < 1) return;
  const upsert = isMySql(db)
    ? 'insert into cart_items (cart_id, book_id, quantity) values (?, ?, ?) on duplicate key update quantity = least(greatest(quantity, values(quantity)), ?)'
    : 'insert into cart_items (cart_id, book_id, quantity) values (?, ?, ?) on conflict (cart_id, book_id) do update set quantity = min(max(quantity, excluded.quantity), ?)';
  await db.raw(upsert, [cartId, bookId, first, limit]);
}
