import type { Knex } from 'knex';

// The order timeline sorts emails and operator actions by when they happened. MySQL's
// DATETIME keeps whole seconds, so a refund made a moment after shipping would tie with the
// shipping email; milliseconds keep them in order. SQLite already stores milliseconds.
const COLUMNS = [
  ['audit_log', 'created_at'],
  ['outbox', 'created_at'],
] as const;

function isMySql(knex: Knex): boolean {
  return (knex.client as Knex.Client).config.client === 'mysql2';
}

export async function up(knex: Knex): Promise<void> {
  if (!isMySql(knex)) return;
  for (const [table, column] of COLUMNS) {
    await knex.raw('ALTER TABLE ?? MODIFY ?? DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)', [table, column]);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (!isMySql(knex)) return;
  for (const [table, column] of COLUMNS) {
    await knex.raw('ALTER TABLE ?? MODIFY ?? DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP', [table, column]);
  }
}
