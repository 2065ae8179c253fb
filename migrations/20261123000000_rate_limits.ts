import type { Knex } from 'knex';

// Throttles and the sign-in lockout reserve attempts with rate-limiter-flexible, whose SQL
// stores (used when Redis is not configured) expect exactly these three columns. It replaces
// the hand-written `throttles` counter. `expire` is epoch milliseconds.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('throttles');
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 191).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire').nullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
  await knex.schema.createTable('throttles', (t) => {
    t.string('key', 191).primary();
    t.integer('hits').notNullable();
    t.bigInteger('window_ends_at').notNullable();
  });
}
