import type { Knex } from 'knex';

// One row per client address that has started a payment: payment starts from one address lock
// it before counting that address's open checkouts, so parallel starts count like sequential
// ones (docs/architecture.md, "The lock order"). The key is a hash of the address, never the
// address itself.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkout_address_locks', (t) => {
    t.string('address_key', 64).primary();
  });
  // These rows were kept among the throttles' counters before they had a table of their own.
  await knex('rate_limits').where('key', 'like', 'checkout-address:%').del();
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('checkout_address_locks');
}
