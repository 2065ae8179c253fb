import type { Knex } from 'knex';

// Discount codes an operator makes in /admin/discounts, and what a checkout and an order took
// off with one. A use is reserved (held + 1) when a payment starts, the same moment stock is
// held, and becomes a use (uses + 1) when the order is made; a checkout that fails or expires
// gives it back. checkouts.discount_held says whether that checkout still holds its use.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('discount_codes', (t) => {
    t.increments('id').primary();
    /** Upper case: codes are typed in any case and compared this way. */
    t.string('code', 40).notNullable().unique();
    /** percentage | fixed | free_shipping */
    t.string('kind', 20).notNullable();
    /** Whole percent for a percentage code; 0 for the other kinds. */
    t.integer('percent').unsigned().notNullable().defaultTo(0);
    /** What a fixed code takes off. */
    t.decimal('amount', 10, 2).notNullable().defaultTo(0);
    t.decimal('minimum_subtotal', 10, 2).notNullable().defaultTo(0);
    /** UTC days, both inclusive; null is open-ended. */
    t.date('starts_on').nullable();
    t.date('ends_on').nullable();
    /** Null: unlimited. */
    t.integer('max_uses').unsigned().nullable();
    t.integer('uses').unsigned().notNullable().defaultTo(0);
    t.integer('held').unsigned().notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    t.dateTime('created_at').notNullable();
  });
  for (const table of ['checkouts', 'orders']) {
    await knex.schema.alterTable(table, (t) => {
      t.string('discount_code', 40).nullable();
      t.decimal('discount', 10, 2).notNullable().defaultTo(0);
    });
  }
  await knex.schema.alterTable('checkouts', (t) => {
    t.boolean('discount_held').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropColumns('discount_code', 'discount', 'discount_held');
  });
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumns('discount_code', 'discount');
  });
  await knex.schema.dropTableIfExists('discount_codes');
}
