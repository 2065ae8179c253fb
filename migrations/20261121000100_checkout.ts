import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The quote a payment intent was created for: the books, their prices and the address,
  // so completing the order never trusts the browser or a cart that changed since.
  await knex.schema.createTable('checkouts', (t) => {
    t.increments('id').primary();
    t.string('payment_intent_id', 255).notNullable().unique();
    t.integer('user_id').unsigned().notNullable().references('users.id');
    t.text('lines').notNullable();
    t.decimal('subtotal', 10, 2).notNullable();
    t.decimal('shipping', 10, 2).notNullable();
    t.decimal('handling', 10, 2).notNullable();
    t.decimal('tax', 10, 2).notNullable();
    t.decimal('total', 10, 2).notNullable();
    t.string('shipping_address', 255).notNullable();
    t.string('city', 100).notNullable();
    t.string('state', 2).nullable();
    t.string('zip_code', 10).notNullable();
    // open -> completed | failed | refunded
    t.string('status', 20).notNullable().defaultTo('open');
    t.dateTime('created_at').notNullable();
  });

  // The sandbox payment provider's own records (the embedded default without Stripe keys).
  await knex.schema.createTable('sandbox_customers', (t) => {
    t.string('id', 64).primary();
    t.string('email', 254).notNullable();
    t.string('name', 200).notNullable();
    t.string('idempotency_key', 191).nullable().unique();
    t.dateTime('created_at').notNullable();
  });
  await knex.schema.createTable('sandbox_payment_intents', (t) => {
    t.string('id', 64).primary();
    t.string('client_secret', 128).notNullable();
    t.integer('amount_cents').unsigned().notNullable();
    t.string('status', 40).notNullable();
    t.string('customer_id', 64).nullable();
    t.text('last_error').nullable();
    t.text('metadata').notNullable();
    t.string('idempotency_key', 191).nullable().unique();
    t.dateTime('created_at').notNullable();
  });
  await knex.schema.createTable('sandbox_refunds', (t) => {
    t.string('id', 64).primary();
    t.string('payment_intent_id', 64).notNullable();
    t.integer('amount_cents').unsigned().notNullable();
    t.string('idempotency_key', 191).nullable().unique();
    t.dateTime('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['sandbox_refunds', 'sandbox_payment_intents', 'sandbox_customers', 'checkouts']) {
    await knex.schema.dropTableIfExists(table);
  }
}
