import type { Knex } from 'knex';

// A visitor's cart is found by a key derived from their session as well as by the id the
// session keeps, so two first additions that arrive together make one cart, not two.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('carts', (t) => {
    t.string('visitor_key', 64).nullable().unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('carts', (t) => {
    t.dropUnique(['visitor_key']);
    t.dropColumn('visitor_key');
  });
}
