import type { Knex } from 'knex';
import { writeAudit } from '../../../models/AuditEntry.ts';

// Values an operator sets in /admin/settings, kept as text by key in the `settings` table.

export const DEFAULT_LOW_STOCK_THRESHOLD = 3;
const LOW_STOCK_KEY = 'low_stock_threshold';

type Trx = Knex | Knex.Transaction;

/** A book with this many copies left to sell, or fewer, is listed on the low-stock view. */
export async function lowStockThreshold(db: Trx): Promise<number> {
  const row: { value: string } | undefined = await db('settings').where({ key: LOW_STOCK_KEY }).first('value');
  const value = Number(row?.value);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_LOW_STOCK_THRESHOLD;
}

export async function setLowStockThreshold(db: Knex, threshold: number, actorId: number): Promise<void> {
  await db.transaction(async (trx) => {
    const before = await lowStockThreshold(trx);
    if (before === threshold) return;
    const changed = await trx('settings')
      .where({ key: LOW_STOCK_KEY })
      .update({ value: String(threshold), updatedAt: new Date() });
    if (!changed) await trx('settings').insert({ key: LOW_STOCK_KEY, value: String(threshold), updatedAt: new Date() });
    await writeAudit(trx, { actorId, action: 'settings.low-stock-threshold', before: { threshold: before }, after: { threshold } });
  });
}
