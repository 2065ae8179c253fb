import type { Knex } from 'knex';

// What a checkout needs to be settled exactly once and swept when abandoned:
// - sold_out_title: the book that made a paid checkout unfillable, for the refund's wording;
// - client_key: a hash of the address the checkout came from, to cap open checkouts per address;
// - (status, created_at): the sweep looks for unsettled checkouts by age.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => {
    t.string('sold_out_title', 255).nullable();
    t.string('client_key', 64).nullable();
    t.index(['status', 'created_at'], 'checkouts_status_created_at_index');
    t.index(['client_key', 'status'], 'checkouts_client_key_status_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropIndex(['client_key', 'status'], 'checkouts_client_key_status_index');
    t.dropIndex(['status', 'created_at'], 'checkouts_status_created_at_index');
    t.dropColumn('client_key');
    t.dropColumn('sold_out_title');
  });
}
