import type { Knex } from 'knex';

// A parent's last shipping address, kept on the account so the next checkout can offer it,
// and a gift note (with the name of the child it is for) that travels from the checkout to
// its order. All nullable: a guest has no saved address and most orders are no gift. The note is text, since a note of 200
// characters as a parent sees them (an emoji family is one) can be many code points.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('saved_address', 255).nullable();
    t.string('saved_city', 100).nullable();
    t.string('saved_zip_code', 10).nullable();
  });
  for (const table of ['checkouts', 'orders']) {
    await knex.schema.alterTable(table, (t) => {
      t.text('gift_note').nullable();
      t.string('gift_recipient', 100).nullable();
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['checkouts', 'orders']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumns('gift_note', 'gift_recipient');
    });
  }
  await knex.schema.alterTable('users', (t) => {
    t.dropColumns('saved_address', 'saved_city', 'saved_zip_code');
  });
}
