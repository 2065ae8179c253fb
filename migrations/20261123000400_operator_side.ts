import type { Knex } from 'knex';

// The publisher's side of the shop:
// - users: an operator's TOTP secret, when it was enrolled, and the last time step used
//   (a code is accepted once); recovery_codes: ten single-use codes, stored as SHA-256;
// - orders: carrier and the fulfilment times, and how much has been refunded so far;
// - refunds: one row per refund asked of the provider, reserved before the call so the
//   total refunded never exceeds what was paid; request_key makes a retried form harmless;
// - audit_log: every operator action (who, what, when, before and after);
// - contact_messages.read_at: the inbox's unread marker;
// - outbox.order_id: the mail an order caused, for its timeline.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('totp_secret', 64).nullable();
    t.dateTime('totp_enrolled_at').nullable();
    t.bigInteger('totp_last_step').nullable();
  });

  await knex.schema.createTable('recovery_codes', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE');
    t.string('code_hash', 64).notNullable().unique();
    t.dateTime('used_at').nullable();
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.alterTable('orders', (t) => {
    t.string('carrier', 40).nullable();
    t.dateTime('shipped_at').nullable();
    t.dateTime('delivered_at').nullable();
    t.dateTime('canceled_at').nullable();
    t.decimal('refunded_amount', 10, 2).notNullable().defaultTo(0);
    t.index(['status', 'created_at'], 'orders_status_created_at_index');
  });

  await knex.schema.createTable('refunds', (t) => {
    t.increments('id').primary();
    t.integer('order_id').unsigned().notNullable().references('orders.id');
    t.decimal('amount', 10, 2).notNullable();
    t.string('reason', 500).notNullable().defaultTo('');
    // 'pending' while the provider is asked, then 'succeeded' or 'failed'.
    t.string('status', 20).notNullable().defaultTo('pending');
    t.string('request_key', 100).notNullable().unique();
    t.string('provider_refund_id', 255).nullable();
    t.string('error', 500).nullable();
    t.integer('actor_id').unsigned().nullable().references('users.id');
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
    t.dateTime('settled_at').nullable();
    t.index(['order_id', 'status']);
  });

  await knex.schema.createTable('audit_log', (t) => {
    t.increments('id').primary();
    t.integer('actor_id').unsigned().nullable().references('users.id');
    t.string('action', 60).notNullable();
    t.integer('order_id').unsigned().nullable().references('orders.id');
    t.integer('contact_message_id').unsigned().nullable().references('contact_messages.id');
    t.text('before_json').nullable();
    t.text('after_json').nullable();
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
    t.index(['order_id', 'created_at']);
  });

  await knex.schema.alterTable('contact_messages', (t) => {
    t.dateTime('read_at').nullable();
  });

  await knex.schema.alterTable('outbox', (t) => {
    t.integer('order_id').unsigned().nullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropIndex(['order_id']);
    t.dropColumn('order_id');
  });
  await knex.schema.alterTable('contact_messages', (t) => t.dropColumn('read_at'));
  await knex.schema.dropTable('audit_log');
  await knex.schema.dropTable('refunds');
  await knex.schema.alterTable('orders', (t) => {
    t.dropIndex(['status', 'created_at'], 'orders_status_created_at_index');
    for (const column of ['refunded_amount', 'canceled_at', 'delivered_at', 'shipped_at', 'carrier']) t.dropColumn(column);
  });
  await knex.schema.dropTable('recovery_codes');
  await knex.schema.alterTable('users', (t) => {
    for (const column of ['totp_last_step', 'totp_enrolled_at', 'totp_secret']) t.dropColumn(column);
  });
}
