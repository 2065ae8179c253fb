import type { Knex } from 'knex';

// A parent's "email me when it's back" for a Coming Soon book: the address and the book, nothing
// else. The rows of a book are mailed and deleted when its stock comes back (back-in-stock.service.ts).
// outbox.list_unsubscribe: the one-click cancel link a message carries in its List-Unsubscribe
// header (RFC 8058), so mail apps can offer their own unsubscribe button.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('back_in_stock_requests', (t) => {
    t.increments('id');
    t.integer('book_id').unsigned().notNullable().references('id').inTable('books');
    t.string('email', 254).notNullable();
    t.unique(['book_id', 'email']);
  });
  await knex.schema.alterTable('outbox', (t) => {
    t.string('list_unsubscribe', 2000).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('list_unsubscribe');
  });
  await knex.schema.dropTable('back_in_stock_requests');
}
