import type { Knex } from 'knex';

// An order's lines found by the order: the exports read them a batch of orders at a time,
// and the numbers join them to orders. MariaDB already indexes the foreign key column (and
// would refuse to drop an index the key needs), so only SQLite gets one.
const isMySql = (knex: Knex) => (knex.client as Knex.Client).config.client === 'mysql2';

export async function up(knex: Knex): Promise<void> {
  if (isMySql(knex)) return;
  await knex.schema.alterTable('order_items', (t) => {
    t.index(['order_id'], 'order_items_order_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  if (isMySql(knex)) return;
  await knex.schema.alterTable('order_items', (t) => {
    t.dropIndex(['order_id'], 'order_items_order_id_index');
  });
}
