import type { Knex } from 'knex';

// One row holding a number that every stock or book change raises in its own transaction.
// Cached catalogue pages are keyed by it, so every process sees a change by reading one row.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalogue_version', (t) => {
    t.integer('id').primary();
    t.bigInteger('version').notNullable().defaultTo(1);
  });
  await knex('catalogue_version').insert({ id: 1, version: 1 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('catalogue_version');
}
