import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { csvHeadings } from '../../helpers/csv-exports.ts';
import { BOOK_FIELDS } from '../../../src/features/catalog/book-fields.ts';
import { bookForm } from '../../../src/features/admin/books/books.schemas.ts';
import { BOOK_HEADINGS } from '../../../src/features/admin/numbers/exports.service.ts';
import { seedBooks } from '../../../seeds/books.ts';
import { Book } from '../../../src/models/Book.ts';

// The list of a book's fields (src/features/catalog/book-fields.ts) is the one place a field is
// named: each field must reach the table, the form's schema and inputs, the DTO, the CSV and the
// seed. A field missing from any of them fails here, by name.

let shop: TestShop;
let agent: supertest.Agent;
beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop?.close();
});

const names = BOOK_FIELDS.map((f) => f.name);
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe("the book's fields, listed once", () => {
  it('names each field and each column once', () => {
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(BOOK_FIELDS.map((f) => f.column)).size).toBe(names.length);
    expect(new Set(BOOK_FIELDS.map((f) => f.csv)).size).toBe(names.length);
  });

  it('has a column in the books table for each, after the migrations', async () => {
    const columns = Object.keys(await shop.db('books').columnInfo()).map(snake);
    for (const field of BOOK_FIELDS) expect(columns, field.name).toContain(field.column);
    // A field saved with the others is the Book property of the same name.
    for (const field of BOOK_FIELDS.filter((f) => !('savedApart' in f))) expect(snake(field.name), field.name).toBe(field.column);
  });

  it('has a rule in the form schema for each, and the schema no field the list lacks', () => {
    expect(Object.keys(bookForm.shape).sort()).toEqual([...names].sort());
  });

  it('has an input named after each in the admin form, in the list order, labelled', async () => {
    for (const path of ['/admin/books/new', '/admin/books/1/edit']) {
      const html = (await agent.get(path).expect(200)).text;
      const inputs = [...html.matchAll(/<(?:input|textarea) id="book-([A-Za-z]+)" name="([A-Za-z]+)"/g)].map((m) => m[2]);
      expect(inputs, path).toEqual(names);
      for (const field of BOOK_FIELDS) expect(html, `${path} ${field.name}`).toMatch(new RegExp(`<label for="book-${field.name}">`));
    }
  });

  it('gives BookDto each field it carries, as stored', async () => {
    const book = (await agent.get('/api/books/1').expect(200)).body as Record<string, unknown>;
    const stored = (await Book.query(shop.db).findById(1))!;
    for (const field of BOOK_FIELDS.filter((f) => f.dto)) {
      expect(book, field.name).toHaveProperty(field.name);
      expect(book[field.name], field.name).toEqual(field.read(stored));
    }
  });

  it('has a column in the books CSV for each, with its heading', async () => {
    const res = await agent.get('/admin/exports/books.csv').expect(200);
    const headings = csvHeadings(res.text);
    for (const field of BOOK_FIELDS) {
      expect(headings, field.name).toContain(field.csv);
      expect(BOOK_HEADINGS[field.name], field.name).toBe(field.csv);
    }
  });

  it('gives every seed book a value for each field with a seed column', () => {
    for (const book of seedBooks('2026-11-28')) {
      for (const field of BOOK_FIELDS) {
        if (field.seed !== null) expect(Object.keys(book), `${book.title}: ${field.name}`).toContain(field.seed);
      }
    }
  });
});
