import type { Knex } from 'knex';
import pLimit, { type LimitFunction } from 'p-limit';
import { retryOnLockConflict } from '../../lib/lock-retry.ts';

// The one lock order. Every transaction that touches a checkout, a discount code, books, stock
// holds or order items takes its locks in this order, so no two of them can each hold what the
// other waits for:
//   1. the customer's account row, then the row of the client address (payment starts only);
//   2. the checkout rows, by ascending id;
//   3. the discount code rows, by code;
//   4. the book rows, by ascending id;
//   5. only then stock holds, order items and the catalogue version are written.
// A transaction may skip a step, never go back to an earlier one. On MySQL each step is a
// SELECT ... FOR UPDATE; SQLite runs one writer at a time, so there is nothing to take.

export interface SaleLocks {
  userId?: number | undefined;
  /** A hash of the client address: payment starts count open checkouts per address under it. */
  addressKey?: string | undefined;
  checkoutIds?: number[];
  codes?: Array<string | null | undefined>;
  bookIds?: number[];
}

/** One row per client address, there only to be locked (migrations/20261125000500_checkout_address_locks.ts). */
const ADDRESS_TABLE = 'checkoutAddressLocks';

const usesRowLocks = (trx: Knex | Knex.Transaction) => (trx.client as Knex.Client).config.client === 'mysql2';

/** Makes sure the address's row exists, outside any transaction, so starts never race to insert it. */
export async function prepareAddressLock(db: Knex, addressKey: string): Promise<void> {
  if (!usesRowLocks(db)) return;
  await db(ADDRESS_TABLE).insert({ addressKey }).onConflict('addressKey').ignore();
}

/** Takes the locks of the rows named, in the lock order. */
export async function lockForSale(trx: Knex.Transaction, locks: SaleLocks): Promise<void> {
  if (!usesRowLocks(trx)) return;
  if (locks.userId !== undefined) await trx('users').where({ id: locks.userId }).select('id').forUpdate();
  if (locks.addressKey) await trx(ADDRESS_TABLE).where({ addressKey: locks.addressKey }).select('addressKey').forUpdate();
  const checkoutIds = ascending(locks.checkoutIds ?? []);
  if (checkoutIds.length) await trx('checkouts').whereIn('id', checkoutIds).orderBy('id').select('id').forUpdate();
  const codes = [...new Set((locks.codes ?? []).filter((c): c is string => Boolean(c)))].sort();
  if (codes.length) await trx('discountCodes').whereIn('code', codes).orderBy('code').select('id').forUpdate();
  const bookIds = ascending(locks.bookIds ?? []);
  if (bookIds.length) await trx('books').whereIn('id', bookIds).orderBy('id').select('id').forUpdate();
}

/**
 * Sale transactions one process runs at once. Each holds a pooled connection while it waits
 * for another's row locks (many parents paying for the one book everyone wants), so the rest
 * of the pool (db.ts) stays free for the pages and the carts of everyone else.
 */
export const SALE_TRANSACTIONS_AT_ONCE = 4;

const saleLimits = new WeakMap<Knex, LimitFunction>();

/**
 * Runs `work` as one transaction that takes sale locks: at most SALE_TRANSACTIONS_AT_ONCE in
 * this process at a time, the others queued without a connection, and run again from the start
 * when the database ends it over a lock (lock-retry.ts).
 */
export function saleTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  let limit = saleLimits.get(db);
  if (!limit) saleLimits.set(db, (limit = pLimit(SALE_TRANSACTIONS_AT_ONCE)));
  return limit(() => retryOnLockConflict(() => db.transaction(work)));
}

const ascending = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
