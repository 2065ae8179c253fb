import type { Knex } from 'knex';

// An uploaded cover, resized into several widths (src/features/admin/cover-images.ts). The
// files are named from cover_name, a hash of the upload, so a new cover is a new address and
// no browser or proxy can show a stale one. Books without one keep their image_url (the
// seeded SVGs).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('books', (t) => {
    t.string('cover_name', 64).nullable();
    /** The largest stored width's size in pixels: the <img>'s width and height. */
    t.integer('cover_width').unsigned().nullable();
    t.integer('cover_height').unsigned().nullable();
    /** The widths stored, ascending, comma-separated: "160,320,480". */
    t.string('cover_widths', 100).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('books', (t) => {
    t.dropColumns('cover_name', 'cover_width', 'cover_height', 'cover_widths');
  });
}
