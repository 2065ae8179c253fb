import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SALE_TRANSACTIONS_AT_ONCE, saleTransaction } from '../../../src/features/checkout/lock-order.ts';
import { isMySql, POOL_SIZE } from '../../../src/db.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false });
});
afterAll(() => shop.close());

describe('sale transactions', () => {
  it('run at most a few at once in one process, leaving the rest of the pool to the pages', async () => {
    let inside = 0;
    let most = 0;
    const started = Array.from({ length: 12 }, (_, i) =>
      saleTransaction(shop.db, async (trx) => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 15));
        await trx.raw('select 1');
        inside--;
        return i;
      }),
    );
    expect(await Promise.all(started)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // SQLite's one connection runs them one by one; MariaDB's pool as many as the limit lets in.
    expect(most).toBe(isMySql(shop.db) ? SALE_TRANSACTIONS_AT_ONCE : 1);
    expect(POOL_SIZE - SALE_TRANSACTIONS_AT_ONCE).toBeGreaterThanOrEqual(4);
  });

  it('runs a transaction the database ended over a lock again, and rolls back one that failed', async () => {
    await shop.db.schema.createTable('sale_probe', (t) => t.integer('n'));
    let attempts = 0;
    const done = await saleTransaction(shop.db, async (trx) => {
      attempts++;
      await trx('sale_probe').insert({ n: attempts });
      if (attempts === 1) throw Object.assign(new Error('Deadlock found'), { code: 'ER_LOCK_DEADLOCK' });
      return attempts;
    });
    expect(done).toBe(2);
    await expect(
      saleTransaction(shop.db, async (trx) => {
        await trx('sale_probe').insert({ n: 99 });
        throw new Error('sold out');
      }),
    ).rejects.toThrow('sold out');
    expect((await shop.db('sale_probe').select('n')).map((r: { n: number }) => r.n)).toEqual([2]);
    await shop.db.schema.dropTable('sale_probe');
  });
});
