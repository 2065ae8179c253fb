import type { Knex } from 'knex';

// A session remembers the account's version at sign-in; changing the password or securing
// the account raises it, which ends every other session, whichever store holds them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('session_version').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('session_version');
  });
}
