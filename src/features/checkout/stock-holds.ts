import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import type { CheckoutLine } from '../../models/Checkout.ts';
import { bumpCatalogueVersion } from '../catalog/catalogue-version.ts';

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

/** Takes one copy count out of stock, only if that many are there. */
async function takeStock(trx: Trx, bookId: number, quantity: number): Promise<boolean> {
  // A book hidden since the cart was priced is not sold either.
  const changed = await trx('books')
    .where({ id: bookId, hidden: false })
    .andWhere('inStock', '>=', quantity)
    .decrement('inStock', quantity);
  if (changed === 1) await bumpCatalogueVersion(trx);
  return changed === 1;
}

export async function takeHolds(trx: Trx, paymentIntentId: string, lines: CheckoutLine[], now = new Date()): Promise<void> {
  const expiresAt = new Date(now.getTime() + HOLD_MINUTES * 60_000);
  for (const line of lines) {
    if (!(await takeStock(trx, line.bookId, line.quantity))) throw new SoldOut(line.title);
    await trx('stockHolds').insert({ paymentIntentId, bookId: line.bookId, quantity: line.quantity, expiresAt, createdAt: now });
  }
}

/**
 * Turns a payment's holds into a sale. A hold that already expired was returned to stock,
 * so its copies are taken again if they are still there; if not, the order cannot be filled.
 */
export async function sellHeldCopies(trx: Trx, paymentIntentId: string, lines: CheckoutLine[]): Promise<void> {
  for (const line of lines) {
    const dropped = await trx('stockHolds').where({ paymentIntentId, bookId: line.bookId }).delete();
    if (dropped === 0 && !(await takeStock(trx, line.bookId, line.quantity))) throw new SoldOut(line.title);
  }
}

/** Returns held copies to stock: those of one payment, or every hold that has expired. */
export async function releaseHolds(db: Db, filter: { paymentIntentId: string } | { expiredBy: Date }): Promise<number> {
  const query = db('stockHolds').select('id', 'bookId', 'quantity');
  if ('paymentIntentId' in filter) query.where({ paymentIntentId: filter.paymentIntentId });
  else query.where('expiresAt', '<=', filter.expiredBy);
  const holds = (await query) as Array<{ id: number; bookId: number; quantity: number }>;
  let released = 0;
  for (const hold of holds) {
    await db.transaction(async (trx) => {
      // Only the request that removes the hold row gives the copies back.
      if ((await trx('stockHolds').where({ id: hold.id }).delete()) !== 1) return;
      await trx('books').where({ id: hold.bookId }).increment('inStock', hold.quantity);
      await bumpCatalogueVersion(trx);
      released++;
    });
  }
  return released;
}
