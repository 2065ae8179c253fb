import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, isMySql, type Db } from '../../src/db.ts';
import { searchBookIds } from '../../src/features/catalog/book-search.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The search index migration (20261125000100_book_search) on the database under test:
// FTS5 with its triggers on SQLite, a FULLTEXT index on MariaDB.
const SEARCH_MIGRATION = '20261125000100_book_search';

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

async function searchIndexExists(): Promise<boolean> {
  if (isMySql(db)) {
    const [rows] = (await db.raw("SHOW INDEX FROM books WHERE Key_name = 'books_search'")) as [unknown[]];
    return rows.length > 0;
  }
  const rows = await db('sqlite_master').whereIn('name', [
    'books_search',
    'books_search_insert',
    'books_search_update',
    'books_search_delete',
  ]);
  return rows.length > 0;
}

describe('the book search migration', () => {
  it('rolls back without a trace, and indexes the books already there when it runs again', async () => {
    await db.migrate.down({ name: SEARCH_MIGRATION });
    expect(await searchIndexExists()).toBe(false);
    const [id] = await db('books').insert({
      title: 'Gooseberry Voyage',
      author: 'Wren Hollis',
      description: 'Sails at dawn.',
      price: '9.00',
      publishedOn: '2024-05-01',
    });

    await db.migrate.up({ name: SEARCH_MIGRATION });
    expect(await searchIndexExists()).toBe(true);
    expect(await searchBookIds(db, 'gooseberry')).toEqual([Number(id)]);
    expect(await searchBookIds(db, 'hollis')).toEqual([Number(id)]);
  });

  it('keeps the index in step when a book is added, changed or deleted', async () => {
    const [id] = await db('books').insert({
      title: 'Marmalade Moon',
      author: 'Pia Lund',
      description: 'A cat on the roof.',
      price: '9.00',
      publishedOn: '2024-05-01',
    });
    expect(await searchBookIds(db, 'marmalade')).toEqual([Number(id)]);

    await db('books').where({ id }).update({ description: 'A heron in the reeds.' });
    expect(await searchBookIds(db, 'heron')).toEqual([Number(id)]);
    expect(await searchBookIds(db, 'roof')).toEqual([]);

    await db('books').where({ id }).delete();
    expect(await searchBookIds(db, 'marmalade')).toEqual([]);
  });
});
