import type { Knex } from 'knex';

// The catalogue's full-text search (src/features/catalog/book-search.ts) over title, author
// and description.
// - SQLite: an FTS5 table that reads its text from `books` (content='books'), kept in step by
//   triggers and filled from the rows already there. Accents are folded, so "cafe" finds
//   "Café". A later migration that makes knex rebuild `books` (SQLite has no ALTER COLUMN)
//   drops these triggers with the old table, and must create them again.
// - MariaDB: an InnoDB FULLTEXT index, which the server keeps in step on commit by itself.
const isMySql = (knex: Knex) => (knex.client as Knex.Client).config.client === 'mysql2';

const COLUMNS = 'title, author, description';
const TRIGGERS = {
  books_search_insert: `AFTER INSERT ON books BEGIN
    INSERT INTO books_search (rowid, ${COLUMNS}) VALUES (new.id, new.title, new.author, new.description);
  END`,
  books_search_delete: `AFTER DELETE ON books BEGIN
    INSERT INTO books_search (books_search, rowid, ${COLUMNS}) VALUES ('delete', old.id, old.title, old.author, old.description);
  END`,
  books_search_update: `AFTER UPDATE OF ${COLUMNS} ON books BEGIN
    INSERT INTO books_search (books_search, rowid, ${COLUMNS}) VALUES ('delete', old.id, old.title, old.author, old.description);
    INSERT INTO books_search (rowid, ${COLUMNS}) VALUES (new.id, new.title, new.author, new.description);
  END`,
};

export async function up(knex: Knex): Promise<void> {
  if (isMySql(knex)) {
    // ALGORITHM=COPY rebuilds the table: added in place after a rollback, the index would miss
    // the rows written while it was away (InnoDB keeps its hidden document ids from before).
    await knex.raw(`ALTER TABLE books ADD FULLTEXT INDEX books_search (${COLUMNS}), ALGORITHM=COPY`);
    return;
  }
  await knex.raw(
    `CREATE VIRTUAL TABLE books_search USING fts5(${COLUMNS}, content='books', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
  );
  for (const [name, body] of Object.entries(TRIGGERS)) await knex.raw(`CREATE TRIGGER ${name} ${body}`);
  await knex.raw(`INSERT INTO books_search (books_search) VALUES ('rebuild')`);
}

export async function down(knex: Knex): Promise<void> {
  if (isMySql(knex)) {
    await knex.raw('ALTER TABLE books DROP INDEX books_search');
    return;
  }
  for (const name of Object.keys(TRIGGERS)) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);
  await knex.raw('DROP TABLE IF EXISTS books_search');
}
