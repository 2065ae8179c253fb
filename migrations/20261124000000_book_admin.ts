import type { Knex } from 'knex';

// The back office's books and stock:
// - books.isbn: 13 digits, unique (NULL for a book entered before ISBNs were kept);
// - books.publisher: the book page's publisher line, Little Lantern Books unless told otherwise;
// - books.hidden: a book taken off sale. Books are never deleted: orders point at them;
// - audit_log.book_id: an operator's change to a book, for its history;
// - settings: small values an operator sets, as text by key (the low-stock threshold).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('books', (t) => {
    t.string('isbn', 13).nullable().unique();
    t.string('publisher', 200).notNullable().defaultTo('Little Lantern Books');
    t.boolean('hidden').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('audit_log', (t) => {
    t.integer('book_id').unsigned().nullable().references('books.id');
  });
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 60).primary();
    t.string('value', 500).notNullable();
    t.dateTime('updated_at').notNullable().defaultTo(knex.fn.now());
  });
  await knex('settings').insert({ key: 'low_stock_threshold', value: '3' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('settings');
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropForeign(['book_id']);
    t.dropColumn('book_id');
  });
  await knex.schema.alterTable('books', (t) => {
    t.dropUnique(['isbn']);
    t.dropColumn('isbn');
    t.dropColumn('publisher');
    t.dropColumn('hidden');
  });
}
