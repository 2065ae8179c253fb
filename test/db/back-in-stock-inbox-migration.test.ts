import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, type Db } from '../../src/db.ts';
import { isUniqueViolation } from '../../src/lib/unique-violation.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The migration that keeps back-in-stock requests once per inbox (20261126000100): requests
// already kept get their inbox, and of several spellings of one inbox for one book the first
// asked stays, so the next restock mails that inbox once.
const INBOX_MIGRATION = '20261126000100_back_in_stock_inbox';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  await db.migrate.latest();
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

async function book(title: string): Promise<number> {
  const [id] = await db('books').insert({ title, author: 'A', description: 'D', price: '9.00', inStock: 0, publishedOn: '2024-05-01' });
  return Number(id);
}

describe('the back-in-stock inbox migration', () => {
  it('gives kept requests their inbox and keeps one per inbox and book, the first asked', async () => {
    await db.migrate.down({ name: INBOX_MIGRATION });
    expect(await db.schema.hasColumn('back_in_stock_requests', 'inbox')).toBe(false);
    const first = await book('Before The Inbox');
    const second = await book('Another Book');
    for (const [bookId, email] of [
      [first, 'victim+1@gmail.com'],
      [first, 'v.ictim@gmail.com'],
      [first, 'victim@googlemail.com'],
      [first, 'parent@example.org'],
      [first, 'parent+x@example.org'],
      [first, 'pa.rent@example.org'],
      [second, 'vic.tim+2@gmail.com'],
    ] as const) {
      await db('back_in_stock_requests').insert({ bookId, email });
    }

    await db.migrate.up({ name: INBOX_MIGRATION });
    const rows = await db('back_in_stock_requests').whereIn('bookId', [first, second]).orderBy('id').select('bookId', 'email', 'inbox');
    expect(rows).toEqual([
      { bookId: first, email: 'victim+1@gmail.com', inbox: 'victim@gmail.com' },
      { bookId: first, email: 'parent@example.org', inbox: 'parent@example.org' },
      { bookId: first, email: 'pa.rent@example.org', inbox: 'pa.rent@example.org' },
      { bookId: second, email: 'vic.tim+2@gmail.com', inbox: 'victim@gmail.com' },
    ]);
  });

  it('refuses a second request of one inbox for one book, and needs the inbox', async () => {
    const id = await book('One Per Inbox');
    await db('back_in_stock_requests').insert({ bookId: id, email: 'a+1@example.org', inbox: 'a@example.org' });
    const again = await db('back_in_stock_requests')
      .insert({ bookId: id, email: 'a+2@example.org', inbox: 'a@example.org' })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(isUniqueViolation(again)).toBe(true);
    await expect(db('back_in_stock_requests').insert({ bookId: id, email: 'b@example.org' })).rejects.toThrow();
    expect(await db('back_in_stock_requests').where({ bookId: id })).toHaveLength(1);
  });

  it('rolls back to one request per address and book, and runs again', async () => {
    await db.migrate.down({ name: INBOX_MIGRATION });
    expect(await db.schema.hasColumn('back_in_stock_requests', 'inbox')).toBe(false);
    const id = await book('Rolled Back');
    await db('back_in_stock_requests').insert({ bookId: id, email: 'c@example.org' });
    await expect(db('back_in_stock_requests').insert({ bookId: id, email: 'c@example.org' })).rejects.toThrow();
    await db.migrate.up({ name: INBOX_MIGRATION });
    expect(await db('back_in_stock_requests').where({ bookId: id }).first('inbox')).toEqual({ inbox: 'c@example.org' });
  });
});
