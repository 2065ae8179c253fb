// Two processes release pre-orders at the same moment (their sweeps, or a stock entry in one
// and the sweep in the other): each on its own connection pool, racing for the same order and
// book rows. Every order is served once, the shelf gives exactly what the orders took, and
// the oldest are the ones served. On MariaDB when DATABASE_URL is set (SQLite runs one writer
// at a time, so there it checks the same outcome without a real race).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, type Db } from '../../../../src/db.ts';
import { createLogger } from '../../../../src/log.ts';
import { createPreorderRelease } from '../../../../src/features/admin/orders/preorder-release.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { countsOf, makeForthcoming } from '../../../helpers/preorder-titles.ts';
import { insertPreorder } from '../../../helpers/preorders.ts';

const OUT_ON = '2026-12-01';
const today = () => OUT_ON;
let shop: TestShop;
let otherDb: Db;

beforeAll(async () => {
  shop = await buildTestShop({ today });
  otherDb = connectDb({ databaseUrl: shop.config.DATABASE_URL, dataDir: shop.config.dataDir, log: createLogger('silent') });
});
afterAll(async () => {
  await otherDb.destroy();
  await shop.close();
});

const ROUNDS = 3;
const ORDERS = 12;

describe('two processes releasing at once', () => {
  it('serve each order once, oldest first, and take from the shelf exactly what the served orders hold', async () => {
    const one = createPreorderRelease({ db: shop.db, shopDay: today });
    const two = createPreorderRelease({ db: otherDb, shopDay: today });
    for (let round = 0; round < ROUNDS; round++) {
      const book = 3 + round;
      // Ten copies: the oldest nine orders want one each, the tenth two.
      await makeForthcoming(shop, book, { publishedOn: OUT_ON, inStock: 10 });
      const ids: number[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const quantity = i === 9 ? 2 : 1;
        const { orderId } = await insertPreorder(shop.db, {
          lines: [{ bookId: book, quantity }],
          createdAt: new Date(Date.now() - (ORDERS - i) * 60_000),
        });
        ids.push(orderId);
      }

      const released = await Promise.all([one.release(), two.release(), one.release(), two.release()]);
      expect(released.reduce((a, b) => a + b, 0)).toBe(9);

      const rows: Array<{ id: number; status: string }> = await shop.db('orders').whereIn('id', ids).orderBy('id').select('id', 'status');
      // The tenth wants two copies and one is left: it waits, and the two after it wait behind it.
      expect(rows.map((r) => r.status)).toEqual([...Array(9).fill('succeeded'), 'preordered', 'preordered', 'preordered']);
      expect(await countsOf(shop, book)).toEqual({ inStock: 1, preordered: 4 });
      const audits = await shop.db('auditLog').whereIn('orderId', ids).where({ action: 'released' }).select('orderId');
      expect(audits.map((a: { orderId: number }) => Number(a.orderId)).sort((a, b) => a - b)).toEqual(ids.slice(0, 9));

      // Two more copies, and both processes run again: the tenth goes, then the eleventh; the last waits.
      await shop.db('books').where({ id: book }).increment('inStock', 2);
      await Promise.all([one.release(), two.release()]);
      const after: Array<{ status: string }> = await shop.db('orders').whereIn('id', ids).orderBy('id').select('status');
      expect(after.map((r) => r.status)).toEqual([...Array(11).fill('succeeded'), 'preordered']);
      expect(await countsOf(shop, book)).toEqual({ inStock: 0, preordered: 1 });
    }
  });
});
