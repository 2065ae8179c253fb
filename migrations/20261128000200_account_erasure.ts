import type { Knex } from 'knex';

// Erasing an account keeps its orders for tax and accounting without the person
// (docs/architecture.md, "Your data"): an order and its checkout may belong to no account.
// A mail sent to an address about to be forgotten (the erasure's confirmation) is deleted
// once sent rather than kept as sent.

// On SQLite, making a column nullable rebuilds its table. The rebuild drops the old table,
// which with foreign keys enforced would delete every order's lines with it, so enforcement is
// off while the tables are rebuilt; a pragma that only works outside a transaction.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await withoutForeignKeys(knex, async () => {
    await knex.schema.alterTable('orders', (t) => {
      t.integer('user_id').unsigned().nullable().alter();
    });
    await knex.schema.alterTable('checkouts', (t) => {
      t.integer('user_id').unsigned().nullable().alter();
    });
  });
  await knex.schema.alterTable('outbox', (t) => {
    t.boolean('forget_after_send').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  // Orders of erased accounts have no owner to give back: said before anything changes.
  const ownerless = Boolean(
    (await knex('orders').whereNull('user_id').first<{ id: number } | undefined>('id')) ??
    (await knex('checkouts').whereNull('user_id').first<{ id: number } | undefined>('id')),
  );
  if (ownerless) throw new Error('orders of erased accounts belong to no account: this migration cannot be undone');
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('forget_after_send');
  });
  await withoutForeignKeys(knex, async () => {
    await knex.schema.alterTable('checkouts', (t) => {
      t.integer('user_id').unsigned().notNullable().alter();
    });
    await knex.schema.alterTable('orders', (t) => {
      t.integer('user_id').unsigned().notNullable().alter();
    });
  });
}

async function withoutForeignKeys(knex: Knex, work: () => Promise<void>): Promise<void> {
  const sqlite = (knex.client as Knex.Client).config.client !== 'mysql2';
  if (sqlite) await knex.raw('PRAGMA foreign_keys = OFF');
  try {
    await work();
  } finally {
    if (sqlite) await knex.raw('PRAGMA foreign_keys = ON');
  }
}
