import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, type Db } from '../../src/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const TABLES = [
  'users',
  'books',
  'carts',
  'cart_items',
  'orders',
  'order_items',
  'stock_holds',
  'contact_messages',
  'account_tokens',
  'outbox',
  'sessions',
  'rate_limits',
  'checkouts',
  'sandbox_customers',
  'sandbox_payment_intents',
  'sandbox_refunds',
  'recovery_codes',
  'refunds',
  'audit_log',
  'catalogue_version',
];

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('migrations', () => {
  it('run up, down and up again', async () => {
    await db.migrate.latest();
    for (const table of TABLES) expect(await db.schema.hasTable(table), table).toBe(true);

    await db.migrate.rollback(undefined, true);
    for (const table of TABLES) expect(await db.schema.hasTable(table), table).toBe(false);

    await db.migrate.latest();
    for (const table of TABLES) expect(await db.schema.hasTable(table), table).toBe(true);
  });

  it('store money as DECIMAL(10,2) exactly', async () => {
    await db('books').insert({ title: 'T', author: 'A', description: 'D', price: '19.99', published_on: '2024-05-01' });
    const row = await db('books').where({ title: 'T' }).first();
    expect(String(Number(row.price).toFixed(2))).toBe('19.99');
  });

  it('refuse a negative stock level', async () => {
    const [id] = await db('books').insert({
      title: 'N',
      author: 'A',
      description: 'D',
      price: '1.00',
      in_stock: 1,
      published_on: '2024-05-01',
    });
    await expect(db('books').where({ id }).update({ in_stock: -1 })).rejects.toThrow();
    expect((await db('books').where({ id }).first()).inStock).toBe(1);
  });

  it('keeps dates the database makes in UTC, whatever the server’s own time zone (MariaDB)', async () => {
    if (db.client.config.client !== 'mysql2') return expect(database.databaseUrl).toBeUndefined();
    const [[row]] = (await db.raw('SELECT @@session.time_zone AS zone, TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW()) AS drift')) as [
      [{ zone: string; drift: number }],
    ];
    expect(row).toEqual({ zone: '+00:00', drift: 0 });
  });

  it('compiles each SQL statement once per SQLite connection, and reads fresh rows and columns through it', async () => {
    // The embedded database of its own, whichever database this run's other tests use.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-statements-'));
    const sqlite = connectDb({ dataDir });
    try {
      const conn = (await sqlite.client.acquireConnection()) as { prepare(sql: string): unknown };
      try {
        expect(conn.prepare('select 1 as n')).toBe(conn.prepare('select 1 as n'));
      } finally {
        await sqlite.client.releaseConnection(conn);
      }
      await sqlite.schema.createTable('kept_statements', (t) => t.integer('n'));
      await sqlite('kept_statements').insert({ n: 1 });
      expect(await sqlite('kept_statements').select('*')).toEqual([{ n: 1 }]);
      await sqlite('kept_statements').insert({ n: 2 });
      expect(await sqlite('kept_statements').select('*')).toEqual([{ n: 1 }, { n: 2 }]);
      await sqlite.schema.alterTable('kept_statements', (t) => t.string('label').defaultTo('pup'));
      expect(await sqlite('kept_statements').select('*')).toEqual([
        { n: 1, label: 'pup' },
        { n: 2, label: 'pup' },
      ]);
    } finally {
      await sqlite.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
