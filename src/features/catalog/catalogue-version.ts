import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';

type Trx = Knex | Knex.Transaction;
type Transactor = Knex.Transaction & { parentTransaction?: Transactor };

// Tells this process's page caches that a change has committed, so the process that made a
// change never shows a page older than it. Other processes learn of it through Redis or by
// re-reading the row (catalogue-watch.ts).
const committed = new EventEmitter().setMaxListeners(0);

/**
 * Raises the catalogue version. Call it in the same transaction as every change to a book or
 * its stock: a page cached under the old number is then never served again.
 */
export async function bumpCatalogueVersion(trx: Trx): Promise<void> {
  await trx('catalogueVersion').where({ id: 1 }).increment('version', 1);
  const announce = () => void committed.emit('change');
  if (!trx.isTransaction) return announce();
  // A savepoint's end is not a commit: wait for the outermost transaction.
  let outer = trx as Transactor;
  while (outer.parentTransaction) outer = outer.parentTransaction;
  outer.executionPromise.then(announce, () => {});
}

export async function readCatalogueVersion(db: Trx): Promise<number> {
  const row: { version: number | string } | undefined = await db('catalogueVersion').where({ id: 1 }).first('version');
  return Number(row?.version ?? 0);
}

/** Calls `listener` after each catalogue change made by this process has committed. */
export function onCatalogueChange(listener: () => void): () => void {
  committed.on('change', listener);
  return () => committed.off('change', listener);
}
