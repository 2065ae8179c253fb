import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../../helpers/app.ts';
import { insertCustomer, textOf } from '../../../helpers/admin-fixtures.ts';
import { addBook, bookFormFields, fieldMessage, postAdminForm } from '../../../helpers/book-admin.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { toCents } from '../../../../src/lib/money.ts';
import { summaryOf } from '../../../helpers/refusals.ts';

let shop: TestShop;
let agent: supertest.Agent;
let operatorId: number;

beforeAll(async () => {
  shop = await buildTestShop();
  ({
    agent,
    operator: { id: operatorId },
  } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

async function bookRow(id: number) {
  return shop.db('books').where({ id }).first();
}

describe('adding a book through the form', () => {
  it('stores every field, ISBN as 13 digits, and records who added it', async () => {
    const id = await addBook(agent, { isbn: '978 1 4028 9462 6', title: '  The Lighthouse Cat  ' });
    const row = await bookRow(id);
    expect(row).toMatchObject({
      title: 'The Lighthouse Cat',
      author: 'Mara Quill',
      inStock: 12,
      isbn: '9781402894626',
      ageRange: '3-5',
      publisher: 'Little Lantern Books',
      pages: 32,
      amazonUrl: 'https://www.amazon.com/dp/0306406152',
      amazonKindleUrl: '#coming-soon',
    });
    // The driver's own form ("14.99" from MariaDB, 14.99 from SQLite), read exactly: 14.9 or 14.999 would fail.
    expect(toCents(row.price)).toBe(1499);
    const audit = await shop.db('auditLog').where({ bookId: id, action: 'book.created' }).first();
    expect(audit.actorId).toBe(operatorId);

    const edit = await agent.get(`/admin/books/${id}/edit`).expect(200);
    expect(edit.text).toContain('value="9781402894626"');
    expect(edit.text).toContain(`href="/admin/books/${id}/cover"`);
  });

  it.each([
    ['title', { title: '   ' }, 'Please enter the title.'],
    ['author', { author: '' }, 'Please enter the author.'],
    ['description', { description: '' }, 'Please enter the description.'],
    ['price', { price: '-1.00' }, 'The price cannot be negative.'],
    ['price', { price: 'twelve' }, 'Please enter the price in dollars and cents, like 12.99.'],
    ['price', { price: '12.999' }, 'Please enter the price in dollars and cents, like 12.99.'],
    ['price', { price: '0' }, 'The price must be more than $0.00.'],
    ['stock', { stock: '-3' }, 'Stock cannot be negative.'],
    ['stock', { stock: '2.5' }, 'Stock must be a whole number of copies, like 12.'],
    ['isbn', { isbn: '978-0-306-40615-8' }, 'That is not a valid ISBN-13: check the 13 digits (the last one is a check digit).'],
    ['isbn', { isbn: '0-306-40615-2' }, 'That is not a valid ISBN-13: check the 13 digits (the last one is a check digit).'],
    ['ageRange', { ageRange: '5-3' }, 'The first age must not be above the second, like 3-5.'],
    ['ageRange', { ageRange: '3-21' }, 'Ages go up to 18.'],
    ['ageRange', { ageRange: 'toddlers' }, 'Enter the age range as two whole numbers, like 3-5.'],
    ['publishedOn', { publishedOn: '2026-02-30' }, 'That is not a real date.'],
    ['publishedOn', { publishedOn: '' }, 'Please enter the publication date.'],
    ['publisher', { publisher: '' }, 'Please enter the publisher.'],
    ['amazonUrl', { amazonUrl: 'javascript:alert(1)' }, 'The hardcover link must start with https://, or be #coming-soon.'],
    ['amazonKindleUrl', { amazonKindleUrl: 'http://example.com' }, 'The Kindle link must start with https://, or be #coming-soon.'],
    ['pages', { pages: '-4' }, 'Pages must be a whole number, like 32.'],
  ])('refuses a bad %s with its message beside the field, refills the form and saves nothing (%j)', async (field, bad, message) => {
    const before = await shop.db('books').count({ n: '*' }).first();
    const fields = bookFormFields({ title: 'Refused Book', isbn: '', ...bad });
    const res = await postAdminForm(agent, '/admin/books/new', '/admin/books', fields);
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, field)).toBe(message);
    expect(res.text).toMatch(new RegExp(`id="book-${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*book-${field}-error`));
    // The other fields keep what was typed.
    if (field !== 'author') expect(res.text).toContain('value="Mara Quill"');
    expect(await shop.db('books').count({ n: '*' }).first()).toEqual(before);
  });

  it('shows every problem at once', async () => {
    const res = await postAdminForm(
      agent,
      '/admin/books/new',
      '/admin/books',
      bookFormFields({ title: '', price: '-2', stock: '-1', isbn: '123' }),
    );
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'title')).toBe('Please enter the title.');
    expect(fieldMessage(res.text, 'price')).toBe('The price cannot be negative.');
    expect(fieldMessage(res.text, 'stock')).toBe('Stock cannot be negative.');
    expect(fieldMessage(res.text, 'isbn')).toMatch(/not a valid ISBN-13/);
    // One summary at the top of the form, in the form's order, each a link to its field.
    expect(summaryOf(res.text, 'book')).toEqual({
      title: 'The book was not added',
      items: [
        'Please enter the title.',
        'The price cannot be negative.',
        'Stock cannot be negative.',
        expect.stringMatching(/not a valid ISBN-13/),
      ],
      links: ['#book-title', '#book-price', '#book-stock', '#book-isbn'],
    });
  });

  it('refuses an ISBN another book has, beside the field', async () => {
    await addBook(agent, { isbn: '9780141036144', title: 'First With This ISBN' });
    const res = await postAdminForm(
      agent,
      '/admin/books/new',
      '/admin/books',
      bookFormFields({ isbn: '978-0-14-103614-4', title: 'Second With This ISBN' }),
    );
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'isbn')).toBe('Another book already has this ISBN.');
    expect(await shop.db('books').where({ title: 'Second With This ISBN' }).first()).toBeUndefined();
  });
});

describe('editing a book', () => {
  it('saves every field and writes the audit entry with before and after', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Before the Edit' });
    const res = await postAdminForm(
      agent,
      `/admin/books/${id}/edit`,
      `/admin/books/${id}`,
      bookFormFields({ isbn: '', title: 'After the Edit', price: '9.50', ageRange: '4 - 7', stock: '3' }),
    );
    expect(res.status).toBe(303);
    expect(await bookRow(id)).toMatchObject({ title: 'After the Edit', ageRange: '4-7', inStock: 3 });
    const audit = await shop.db('auditLog').where({ bookId: id, action: 'book.edited' }).first();
    expect(JSON.parse(audit.beforeJson).title).toBe('Before the Edit');
    expect(JSON.parse(audit.afterJson)).toMatchObject({ title: 'After the Edit', price: '9.50' });
  });

  it('refuses a bad edit with the messages and changes nothing', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Kept As It Was' });
    const res = await postAdminForm(
      agent,
      `/admin/books/${id}/edit`,
      `/admin/books/${id}`,
      bookFormFields({ isbn: '', title: '', price: '-5' }),
    );
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'title')).toBe('Please enter the title.');
    expect(fieldMessage(res.text, 'price')).toBe('The price cannot be negative.');
    expect((await bookRow(id)).title).toBe('Kept As It Was');
  });

  it('answers 404 for a book that does not exist', async () => {
    await agent.get('/admin/books/999999/edit').expect(404);
    await agent.get('/admin/books/abc/edit').expect(404);
  });
});

describe('the books list', () => {
  it('shows cover, title, author, price, stock, status and a Cover link per row', async () => {
    const res = await agent.get('/admin/books').expect(200);
    const text = textOf(res.text);
    expect(text).toContain('Pip and the Moon Garden');
    expect(res.text).toMatch(
      /<td data-label="Cover" class="book-thumb">\s*<img src="\/covers\/[^"]+" alt="" width="40" height="60" loading="lazy">/,
    );
    expect(res.text).toMatch(/href="\/admin\/books\/1\/cover"/);
    expect(res.text).toMatch(/name="stock"[^>]*value="\d+"/);
    expect(text).toMatch(/On sale|Coming soon/);
    expect(res.text).toContain('href="/admin/books"');
  });

  it('pages 25 at a time', async () => {
    for (let i = 0; i < 26; i++)
      await shop
        .db('books')
        .insert({ title: `Filler ${i}`, author: 'A', description: 'D', price: '5.00', inStock: 5, publishedOn: '2026-01-01' });
    const first = await agent.get('/admin/books').expect(200);
    expect(first.text).toContain('rel="next"');
    const last = await agent.get('/admin/books?page=99').expect(200);
    expect(last.text).toContain('rel="prev"');
    expect(textOf(last.text)).toContain('Filler 25');
  });
});

describe('who reaches the books pages', () => {
  it('sends a visitor to sign in and answers 404 to a customer', async () => {
    const visitor = shop.browser();
    for (const path of ['/admin/books', '/admin/books/new', '/admin/books/1/edit', '/admin/settings', '/admin/books?stock=low']) {
      const res = await visitor.get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/login');
    }
    const customer = await insertCustomer(shop.db);
    const parent = shop.browser();
    const login = await parent.get('/login');
    const token = /name="_csrf" value="([^"]*)"/.exec(login.text)![1];
    await parent.post('/login').type('form').send({ _csrf: token, email: customer.email, password: customer.password }).expect(303);
    for (const path of ['/admin/books', '/admin/books/new', '/admin/books/1/edit', '/admin/settings']) await parent.get(path).expect(404);
    await parent
      .post('/admin/books/1/hide')
      .type('form')
      .send({ _csrf: await csrfTokenFor(parent) })
      .expect(404);
    expect((await bookRow(1)).hidden).toBeFalsy();
  });
});
