import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import type { CheckoutLine } from '../../models/Checkout.ts';
import { bumpCatalogueVersion } from '../catalog/catalogue-version.ts';
import { lockForSale, saleTransaction } from './lock-order.ts';

// Copies are held while a payment is in progress: taken from books.in_stock when the payment
// intent is created, recorded in stock_holds, and either sold (the hold row is dropped) or
// returned (stock goes back up). Every stock change is a conditional UPDATE, so stock can
// never go below zero and no copy is sold twice, on SQLite and MySQL alike.

export const HOLD_MINUTES = 20;

type Trx = Knex | Knex.Transaction;

export class SoldOut extends Error {
  constructor(readonly title: string) {
    super(`Sorry, "${title}" has just sold out.`);
  }
}

/** Takes one copy count out of stock, only if that many are there. The caller bumps the catalogue version. */
async function takeStock(trx: Trx, bookId: number, quantity: number): Promise<boolean> {
  // A book hidden since the cart was priced is not sold either.
  const changed = await trx('books')
    .where({ id: bookId, hidden: false })
    .andWhere('inStock', '>=', quantity)
    .decrement('inStock', quantity);
  return changed === 1;
}

/** Holds the lines' copies. Call holding the lock order's locks of these books (lock-order.ts). */
export async function takeHolds(trx: Trx, paymentIntentId: string, lines: CheckoutLine[], now = new Date()): Promise<void> {
  const expiresAt = new Date(now.getTime() + HOLD_MINUTES * 60_000);
  const byBook = [...lines].sort((a, b) => a.bookId - b.bookId);
  for (const line of byBook) {
    if (!(await takeStock(trx, line.bookId, line.quantity))) throw new SoldOut(line.title);
  }
  for (const line of byBook) {
    await trx('stockHolds').insert({ paymentIntentId, bookId: line.bookId, quantity: line.quantity, expiresAt, createdAt: now });
  }
  if (byBook.length) await bumpCatalogueVersion(trx);
}

/**
 * Turns a payment's holds into a sale. A hold that already expired was returned to stock,
 * so its copies are taken again if they are still there; if not, the order cannot be filled.
 * Call holding the lock order's locks of these books.
 */
export async function sellHeldCopies(trx: Trx, paymentIntentId: string, lines: CheckoutLine[]): Promise<void> {
  let stockChanged = false;
  for (const line of [...lines].sort((a, b) => a.bookId - b.bookId)) {
    const dropped = await trx('stockHolds').where({ paymentIntentId, bookId: line.bookId }).delete();
    if (dropped > 0) continue;
    if (!(await takeStock(trx, line.bookId, line.quantity))) throw new SoldOut(line.title);
    stockChanged = true;
  }
  if (stockChanged) await bumpCatalogueVersion(trx);
}

/** Returns one payment's held copies to stock. Call holding the lock order's locks of its checkout and books. */
export async function releaseHoldsOf(trx: Knex.Transaction, paymentIntentId: string): Promise<number> {
  const holds = await trx('stockHolds').where({ paymentIntentId }).orderBy('bookId').select<Hold[]>('id', 'bookId', 'quantity');
  for (const hold of holds) await giveBack(trx, hold);
  if (holds.length) await bumpCatalogueVersion(trx);
  return holds.length;
}

/** Returns every expired hold's copies to stock, each in a transaction of its own that takes its book first. */
export async function releaseExpiredHolds(db: Db, expiredBy: Date): Promise<number> {
  const holds = await db('stockHolds').where('expiresAt', '<=', expiredBy).select<Hold[]>('id', 'bookId', 'quantity');
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

type Hold = { id: number; bookId: number; quantity: number };

async function giveBack(trx: Knex.Transaction, hold: Hold): Promise<boolean> {
  if ((await trx('stockHolds').where({ id: hold.id }).delete()) !== 1) return false;
  await trx('books').where({ id: hold.bookId }).increment('inStock', hold.quantity);
  return true;
}
