import type { Knex } from 'knex';
import { inboxOf } from '../src/lib/email.ts';

// A back-in-stock request is kept once per inbox and book, whichever spelling of the address
// asked (src/lib/email.ts, inboxOf), so a restock mails one inbox once. Requests already kept
// get their inbox; of several spellings of one inbox for one book, the first asked stays.
const TABLE = 'back_in_stock_requests';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable(TABLE, (t) => {
    t.string('inbox', 254).nullable();
  });
  const rows = await knex(TABLE).select<Array<{ id: number; bookId: number; email: string }>>('id', 'book_id', 'email').orderBy('id');
  const kept = new Set<string>();
  const repeats: number[] = [];
  for (const row of rows) {
    const inbox = inboxOf(row.email);
    const key = `${row.bookId} ${inbox}`;
    if (kept.has(key)) {
      repeats.push(row.id);
      continue;
    }
    kept.add(key);
    await knex(TABLE).where({ id: row.id }).update({ inbox });
  }
  for (let i = 0; i < repeats.length; i += 500)
    await knex(TABLE)
      .whereIn('id', repeats.slice(i, i + 500))
      .delete();
  await knex.schema.alterTable(TABLE, (t) => {
    t.string('inbox', 254).notNullable().alter();
    t.unique(['book_id', 'inbox']);
  });
  // The new index also serves the book's foreign key, so the old one can go.
  await knex.schema.alterTable(TABLE, (t) => {
    t.dropUnique(['book_id', 'email']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable(TABLE, (t) => {
    t.unique(['book_id', 'email']);
  });
  await knex.schema.alterTable(TABLE, (t) => {
    t.dropUnique(['book_id', 'inbox']);
  });
  await knex.schema.alterTable(TABLE, (t) => {
    t.dropColumn('inbox');
  });
}
