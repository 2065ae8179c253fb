import type { Knex } from 'knex';

// Pre-orders (src/features/catalog/preorder.rules.ts). A forthcoming title takes them when the
// operator switches them on, up to an optional limit (the first print run). `preordered` counts
// the copies promised and not yet served from stock: held by a payment in progress or in a
// paid pre-order. It is changed by conditional updates under the book's lock, exactly as
// in_stock is, so the limit holds under any number of parents at once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('books', (t) => {
    t.boolean('takes_preorders').notNullable().defaultTo(false);
    t.integer('preorder_limit').unsigned().nullable();
    t.integer('preordered').unsigned().notNullable().defaultTo(0);
  });
  // A hold or an order line is a pre-order's: it counts against `preordered`, not in_stock.
  await knex.schema.alterTable('stock_holds', (t) => {
    t.boolean('preorder').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('order_items', (t) => {
    t.boolean('preorder').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => t.dropColumn('preorder'));
  await knex.schema.alterTable('stock_holds', (t) => t.dropColumn('preorder'));
  await knex.schema.alterTable('books', (t) => t.dropColumns('takes_preorders', 'preorder_limit', 'preordered'));
}
