import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import { toDay } from '../../lib/dates.ts';
import type { CheckoutLine } from '../../models/Checkout.ts';
import { bumpCatalogueVersion } from '../catalog/catalogue-version.ts';
import { lockForSale, saleTransaction } from './lock-order.ts';

// Copies are held while a payment is in progress, recorded in stock_holds, and either sold (the
// hold row is dropped) or returned. An ordinary line takes its copies from books.in_stock, and
// only from the copies not owed to pre-orders; a pre-order's line takes them from the title's
// pre-order limit by raising books.preordered. Every change is a conditional UPDATE, so stock
// never goes below zero, pre-orders never pass their limit and no copy is sold twice, on
// SQLite and MySQL alike.

export const HOLD_MINUTES = 20;

type Trx = Knex | Knex.Transaction;

export class SoldOut extends Error {
  constructor(
    readonly title: string,
    /** The title's pre-order copies ran out, rather than its stock. */
    readonly preorder = false,
  ) {
    super(preorder ? `Sorry, every pre-order copy of "${title}" has just been taken.` : `Sorry, "${title}" has just sold out.`);
  }
}

/**
 * Takes copies out of stock, only if that many are there beyond the copies still owed to
 * pre-orders (served first: preorder.rules.ts, copiesForSale). The caller bumps the catalogue version.
 */
async function takeStock(trx: Trx, bookId: number, quantity: number): Promise<boolean> {
  // A book hidden since the cart was priced is not sold either. A sum, not a difference: the counts are unsigned on MariaDB.
  const changed = await trx('books')
    .where({ id: bookId, hidden: false })
    .andWhereRaw('?? >= ?? + ?', ['inStock', 'preordered', quantity])
    .decrement('inStock', quantity);
  return changed === 1;
}

/**
 * Promises copies of a forthcoming title to a pre-order, only while it still takes pre-orders
 * on `today` and the copies fit under its limit. `today` is left out when a paid pre-order
 * takes back an allowance its expired hold gave up: the parent has paid, so only the limit counts.
 */
async function takePreorder(trx: Trx, bookId: number, quantity: number, today: string | null): Promise<boolean> {
  const query = trx('books')
    .where({ id: bookId, hidden: false })
    .where((q) => q.whereNull('preorderLimit').orWhereRaw('?? + ? <= ??', ['preordered', quantity, 'preorderLimit']));
  if (today !== null) query.where('takesPreorders', true).where('publishedOn', '>', today);
  return (await query.increment('preordered', quantity)) === 1;
}

/**
 * The first line whose copies are plainly gone as the books stand now (the conditions of
 * takeStock and takePreorder, read without a lock). Only an early answer: the conditional
 * updates under the locks decide.
 */
export async function firstGoneLine(db: Trx, lines: CheckoutLine[], today: string): Promise<CheckoutLine | undefined> {
  if (!lines.length) return undefined;
  const rows = await db('books')
    .whereIn(
      'id',
      lines.map((line) => line.bookId),
    )
    .select<TitleRow[]>('id', 'hidden', 'inStock', 'preordered', 'preorderLimit', 'takesPreorders', 'publishedOn');
  const byId = new Map(rows.map((row) => [row.id, row]));
  return lines.find((line) => {
    const book = byId.get(line.bookId);
    if (!book || book.hidden) return true;
    const preordered = Number(book.preordered);
    if (!line.preorder) return Number(book.inStock) < preordered + line.quantity;
    const out = toDay(book.publishedOn) <= today || !book.takesPreorders;
    return out || (book.preorderLimit !== null && preordered + line.quantity > Number(book.preorderLimit));
  });
}

type TitleRow = {
  id: number;
  hidden: boolean | number;
  inStock: number;
  preordered: number;
  preorderLimit: number | null;
  takesPreorders: boolean | number;
  publishedOn: Date | string;
};

function take(trx: Trx, line: CheckoutLine, today: string | null): Promise<boolean> {
  return line.preorder ? takePreorder(trx, line.bookId, line.quantity, today) : takeStock(trx, line.bookId, line.quantity);
}

/**
 * Holds the lines' copies, a pre-order's against its title's limit on the shop's day `today`.
 * Call holding the lock order's locks of these books (lock-order.ts).
 */
export async function takeHolds(trx: Trx, paymentIntentId: string, lines: CheckoutLine[], today: string, now = new Date()): Promise<void> {
  const expiresAt = new Date(now.getTime() + HOLD_MINUTES * 60_000);
  const byBook = [...lines].sort((a, b) => a.bookId - b.bookId);
  for (const line of byBook) {
    if (!(await take(trx, line, today))) throw new SoldOut(line.title, Boolean(line.preorder));
  }
  for (const line of byBook) {
    await trx('stockHolds').insert({
      paymentIntentId,
      bookId: line.bookId,
      quantity: line.quantity,
      preorder: Boolean(line.preorder),
      expiresAt,
      createdAt: now,
    });
  }
  if (byBook.length) await bumpCatalogueVersion(trx);
}

/**
 * Turns a payment's holds into a sale. A hold that already expired was given back, so its
 * copies (or its pre-order allowance) are taken again if they are still there; if not, the
 * order cannot be filled. Call holding the lock order's locks of these books.
 */
export async function sellHeldCopies(trx: Trx, paymentIntentId: string, lines: CheckoutLine[]): Promise<void> {
  let stockChanged = false;
  for (const line of [...lines].sort((a, b) => a.bookId - b.bookId)) {
    const dropped = await trx('stockHolds').where({ paymentIntentId, bookId: line.bookId }).delete();
    if (dropped > 0) continue;
    if (!(await take(trx, line, null))) throw new SoldOut(line.title, Boolean(line.preorder));
    stockChanged = true;
  }
  if (stockChanged) await bumpCatalogueVersion(trx);
}

/** Returns one payment's held copies. Call holding the lock order's locks of its checkout and books. */
export async function releaseHoldsOf(trx: Knex.Transaction, paymentIntentId: string): Promise<number> {
  const holds = await trx('stockHolds').where({ paymentIntentId }).orderBy('bookId').select<Hold[]>('id', 'bookId', 'quantity', 'preorder');
  for (const hold of holds) await giveBack(trx, hold);
  if (holds.length) await bumpCatalogueVersion(trx);
  return holds.length;
}

/** Returns every expired hold's copies, each in a transaction of its own that takes its book first. */
export async function releaseExpiredHolds(db: Db, expiredBy: Date): Promise<number> {
  const holds = await db('stockHolds').where('expiresAt', '<=', expiredBy).select<Hold[]>('id', 'bookId', 'quantity', 'preorder');
  let released = 0;
  for (const hold of holds) {
    const gone = await saleTransaction(db, async (trx) => {
      await lockForSale(trx, { bookIds: [hold.bookId] });
      // Only the request that removes the hold row gives the copies back.
      if (!(await giveBack(trx, hold))) return false;
      await bumpCatalogueVersion(trx);
      return true;
    });
    if (gone) released++;
  }
  return released;
}

type Hold = { id: number; bookId: number; quantity: number; preorder: boolean | number };

/** A pre-order's hold gives its copies back to the limit; any other, to the shelf. */
async function giveBack(trx: Knex.Transaction, hold: Hold): Promise<boolean> {
  if ((await trx('stockHolds').where({ id: hold.id }).delete()) !== 1) return false;
  // Never below zero, so an unsigned count cannot fail the release that frees everyone else's copies.
  if (hold.preorder)
    await trx('books')
      .where({ id: hold.bookId })
      .update({
        preordered: trx.raw('case when ?? >= ? then ?? - ? else 0 end', ['preordered', hold.quantity, 'preordered', hold.quantity]),
      });
  else await trx('books').where({ id: hold.bookId }).increment('inStock', hold.quantity);
  return true;
}
