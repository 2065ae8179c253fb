import type { Knex } from 'knex';

// The whole shop's schema. Money is DECIMAL(10,2); code handles it as integer cents.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('email', 254).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('first_name', 100).notNullable();
    t.string('last_name', 100).notNullable().defaultTo('');
    t.string('role', 20).notNullable().defaultTo('customer');
    // Set after a temporary password is used: the next page asks for a new password.
    t.boolean('must_change_password').notNullable().defaultTo(false);
    // One security email of each kind per account per 30 minutes.
    t.dateTime('temporary_password_sent_at').nullable();
    t.dateTime('reset_link_sent_at').nullable();
    t.string('payment_customer_id', 255).nullable();
    t.timestamps(true, true);
  });

  await knex.schema.createTable('books', (t) => {
    t.increments('id').primary();
    t.string('title', 200).notNullable();
    t.string('author', 200).notNullable();
    t.text('description').notNullable();
    t.decimal('price', 10, 2).notNullable();
    t.string('image_url', 500).nullable();
    t.integer('in_stock').unsigned().notNullable().defaultTo(0);
    t.string('amazon_url', 500).nullable();
    t.string('amazon_kindle_url', 500).nullable();
    t.string('age_range', 20).notNullable().defaultTo('3-9');
    t.integer('pages').unsigned().nullable();
    t.date('published_on').notNullable();
    t.timestamps(true, true);
    // UNSIGNED is ignored by SQLite; the check holds on both.
    t.check('?? >= 0', ['in_stock'], 'books_in_stock_not_negative');
  });

  // A cart belongs to a signed-in user or, for a visitor, to the session that holds its id.
  await knex.schema.createTable('carts', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().nullable().unique().references('users.id').onDelete('CASCADE');
    t.timestamps(true, true);
  });

  await knex.schema.createTable('cart_items', (t) => {
    t.increments('id').primary();
    t.integer('cart_id').unsigned().notNullable().references('carts.id').onDelete('CASCADE');
    t.integer('book_id').unsigned().notNullable().references('books.id').onDelete('CASCADE');
    t.integer('quantity').unsigned().notNullable();
    t.timestamps(true, true);
    t.unique(['cart_id', 'book_id']);
    t.check('?? >= 1', ['quantity'], 'cart_items_quantity_positive');
  });

  await knex.schema.createTable('orders', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('users.id');
    t.string('status', 40).notNullable().defaultTo('pending');
    t.decimal('subtotal', 10, 2).notNullable();
    t.decimal('shipping', 10, 2).notNullable();
    t.decimal('handling', 10, 2).notNullable();
    t.decimal('tax', 10, 2).notNullable();
    t.decimal('total_amount', 10, 2).notNullable();
    t.string('stripe_payment_intent_id', 255).nullable().unique();
    t.string('shipping_address', 255).notNullable();
    t.string('city', 100).notNullable();
    t.string('state', 2).nullable();
    t.string('zip_code', 10).notNullable();
    t.string('tracking_number', 100).nullable();
    t.date('estimated_delivery').nullable();
    t.timestamps(true, true);
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('order_items', (t) => {
    t.increments('id').primary();
    t.integer('order_id').unsigned().notNullable().references('orders.id').onDelete('CASCADE');
    t.integer('book_id').unsigned().notNullable().references('books.id');
    t.string('title', 200).notNullable();
    t.integer('quantity').unsigned().notNullable();
    t.decimal('price', 10, 2).notNullable();
  });

  // Copies held for a payment in progress; sold when it succeeds, returned when it fails or expires.
  await knex.schema.createTable('stock_holds', (t) => {
    t.increments('id').primary();
    t.string('payment_intent_id', 255).notNullable();
    t.integer('book_id').unsigned().notNullable().references('books.id');
    t.integer('quantity').unsigned().notNullable();
    t.dateTime('expires_at').notNullable().index();
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
    t.unique(['payment_intent_id', 'book_id']);
  });

  await knex.schema.createTable('contact_messages', (t) => {
    t.increments('id').primary();
    t.string('first_name', 100).notNullable();
    t.string('last_name', 100).notNullable();
    t.string('email', 254).notNullable();
    t.boolean('current_member').notNullable();
    t.string('subject', 200).notNullable();
    t.text('description').notNullable();
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
  });

  // Single-use secrets: reset links and temporary passwords. Only a SHA-256 of each is stored.
  await knex.schema.createTable('account_tokens', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE');
    t.string('purpose', 30).notNullable();
    t.string('token_hash', 128).notNullable().unique();
    t.dateTime('expires_at').notNullable();
    t.dateTime('used_at').nullable();
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
  });

  // Mail written in the same transaction as the change that causes it, sent after commit.
  await knex.schema.createTable('outbox', (t) => {
    t.increments('id').primary();
    t.string('to_address', 254).notNullable();
    t.string('subject', 255).notNullable();
    t.text('text_body').notNullable();
    t.text('html_body').notNullable();
    t.string('dedupe_key', 191).nullable().unique();
    t.integer('attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').notNullable().defaultTo(knex.fn.now()).index();
    t.dateTime('sent_at').nullable();
    t.text('last_error').nullable();
    t.dateTime('created_at').notNullable().defaultTo(knex.fn.now());
  });

  // Fixed-window counters for throttling (sign-in failures per address and per account)
  // when Redis is not configured. Times are epoch milliseconds.
  await knex.schema.createTable('throttles', (t) => {
    t.string('key', 191).primary();
    t.integer('hits').notNullable();
    t.bigInteger('window_ends_at').notNullable();
  });

  // The SQL session store's table (connect-session-knex's layout) for the embedded default.
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 255).primary();
    t.text('sess').notNullable();
    t.dateTime('expired').notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'sessions',
    'throttles',
    'outbox',
    'account_tokens',
    'contact_messages',
    'stock_holds',
    'order_items',
    'orders',
    'cart_items',
    'carts',
    'books',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
