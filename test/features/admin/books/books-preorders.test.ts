import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { textOf } from '../../../helpers/admin-fixtures.ts';
import { addBook, bookFormFields, fieldMessage, postAdminForm } from '../../../helpers/book-admin.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { toCents } from '../../../../src/lib/money.ts';
import { toDay } from '../../../../src/lib/dates.ts';

// The book form's pre-order switch and limit: a forthcoming title's date must be after the shop's
// day, and the limit never below the copies already pre-ordered, each refused beside its field
// with nothing changed.

let shop: TestShop;
let agent: supertest.Agent;
/** The shop's day, moved by the tests that stand on a later one. */
let today = '2026-11-28';

beforeAll(async () => {
  shop = await buildTestShop({ today: () => today });
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop?.close();
});

const NOT_FORTHCOMING = "A forthcoming title's publication date must be after today.";

const bookRow = (id: number) => shop.db('books').where({ id }).first();
const edit = (id: number, fields: Record<string, string>) =>
  postAdminForm(agent, `/admin/books/${id}/edit`, `/admin/books/${id}`, bookFormFields({ isbn: '', ...fields }));
const forthcoming = (title: string, more: Record<string, string> = {}) =>
  addBook(agent, { isbn: '', title, stock: '0', publishedOn: '2027-03-02', takesPreorders: 'on', ...more });

describe('switching pre-orders on', () => {
  it('stores the switch and the limit, shows them in the form and the audit, and the list says Taking pre-orders', async () => {
    const id = await forthcoming('The Moonlit Orchard', { preorderLimit: '500' });
    expect(await bookRow(id)).toMatchObject({ preorderLimit: 500 });
    expect(Boolean((await bookRow(id)).takesPreorders)).toBe(true);

    const form = (await agent.get(`/admin/books/${id}/edit`).expect(200)).text;
    expect(form).toMatch(/<input id="book-takesPreorders" name="takesPreorders" type="checkbox" value="on" checked>/);
    expect(form).toContain('Take pre-orders before the publication date');
    expect(form).toMatch(
      /<input id="book-preorderLimit" name="preorderLimit" type="text" inputmode="numeric" value="500" aria-describedby="book-preorderLimit-hint">/,
    );
    expect(form).toContain('The first print run; empty for no limit');
    expect(textOf(form)).toContain('Taking pre-orders');

    const audit = await shop.db('auditLog').where({ bookId: id, action: 'book.created' }).first();
    expect(JSON.parse(audit.afterJson)).toMatchObject({ takesPreorders: true, preorderLimit: 500 });

    // Added first here, it is on the list's first page, after the seed books.
    const list = textOf((await agent.get('/admin/books').expect(200)).text);
    expect(list).toMatch(/The Moonlit Orchard[^]*?Taking pre-orders/);
  });

  it('keeps an edit of the switch and the limit in the audit entry, before and after', async () => {
    const id = await forthcoming('The Sleepy Volcano');
    expect((await edit(id, { title: 'The Sleepy Volcano', stock: '0', publishedOn: '2027-03-02', preorderLimit: '40' })).status).toBe(303);
    const audit = await shop.db('auditLog').where({ bookId: id, action: 'book.edited' }).first();
    expect(JSON.parse(audit.beforeJson)).toMatchObject({ takesPreorders: true, preorderLimit: null });
    expect(JSON.parse(audit.afterJson)).toMatchObject({ takesPreorders: false, preorderLimit: 40 });
  });

  it('keeps a limit without the switch: saved, and the title is simply Coming soon', async () => {
    const id = await addBook(agent, { isbn: '', title: 'A Limit Alone', stock: '0', publishedOn: '2027-05-01', preorderLimit: '12' });
    expect(await bookRow(id)).toMatchObject({ preorderLimit: 12 });
    expect(Boolean((await bookRow(id)).takesPreorders)).toBe(false);
    expect(textOf((await agent.get(`/admin/books/${id}/edit`).expect(200)).text)).toContain('Coming soon');
  });

  it.each([
    ['today', '2026-11-28'],
    ['yesterday', '2026-11-27'],
    ['last year', '2025-06-01'],
  ])('refuses a new forthcoming title dated %s, beside the date, adding nothing', async (_when, publishedOn) => {
    const title = `Dated ${publishedOn}`;
    const fields = bookFormFields({ isbn: '', title, takesPreorders: 'on', publishedOn });
    const res = await postAdminForm(agent, '/admin/books/new', '/admin/books', fields);
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'publishedOn')).toBe(NOT_FORTHCOMING);
    // The form comes back as typed, the switch still ticked.
    expect(res.text).toMatch(/name="takesPreorders" type="checkbox" value="on" checked/);
    expect(await shop.db('books').where({ title }).first()).toBeUndefined();
  });

  it.each([
    ['a word', 'lots', 'The pre-order limit must be a whole number of copies, like 500; empty for no limit.'],
    ['a fraction', '2.5', 'The pre-order limit must be a whole number of copies, like 500; empty for no limit.'],
    ['zero', '0', 'The pre-order limit must be at least 1 copy; empty for no limit.'],
    ['too many', '100001', 'The pre-order limit can be at most 100,000 copies.'],
  ])('refuses %s as the limit, beside it', async (_what, preorderLimit, message) => {
    const title = `Limit ${preorderLimit}`;
    const res = await postAdminForm(agent, '/admin/books/new', '/admin/books', bookFormFields({ isbn: '', title, preorderLimit }));
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'preorderLimit')).toBe(message);
    expect(await shop.db('books').where({ title }).first()).toBeUndefined();
  });
});

describe('editing a title that takes pre-orders', () => {
  it('refuses moving its date to today or earlier, or switching pre-orders on for a title already out; the rest saves after its day came', async () => {
    const id = await forthcoming('The Kite Festival', { publishedOn: '2026-12-10' });
    const moved = await edit(id, { title: 'The Kite Festival', stock: '0', takesPreorders: 'on', publishedOn: '2026-11-28' });
    expect(moved.status).toBe(400);
    expect(fieldMessage(moved.text, 'publishedOn')).toBe(NOT_FORTHCOMING);
    expect(await bookRow(id)).toMatchObject({ title: 'The Kite Festival' });
    expect(toDay((await bookRow(id)).publishedOn)).toBe('2026-12-10');

    today = '2026-12-15';
    try {
      // Its day came: saving it unchanged, or with a new price, still works.
      const saved = await edit(id, {
        title: 'The Kite Festival',
        stock: '0',
        takesPreorders: 'on',
        publishedOn: '2026-12-10',
        price: '13.99',
      });
      expect(saved.status).toBe(303);
      expect(toCents((await bookRow(id)).price)).toBe(1399);
      expect(textOf((await agent.get(`/admin/books/${id}/edit`).expect(200)).text)).toContain('Coming soon');

      const out = await addBook(agent, { isbn: '', title: 'Already Out', publishedOn: '2026-10-01' });
      const switched = await edit(out, { title: 'Already Out', takesPreorders: 'on', publishedOn: '2026-10-01' });
      expect(switched.status).toBe(400);
      expect(fieldMessage(switched.text, 'publishedOn')).toBe(NOT_FORTHCOMING);
      expect(Boolean((await bookRow(out)).takesPreorders)).toBe(false);
    } finally {
      today = '2026-11-28';
    }
  });

  it('refuses a limit below the copies already pre-ordered, beside the limit, and takes one at or above them', async () => {
    const id = await forthcoming('The Button Moon', { preorderLimit: '10' });
    await shop.db('books').where({ id }).update({ preordered: 3 });
    const fields = {
      title: 'The Button Moon',
      stock: '0',
      takesPreorders: 'on',
      publishedOn: '2027-03-02',
      description: 'Changed with the limit.',
    };
    const low = await edit(id, { ...fields, preorderLimit: '2' });
    expect(low.status).toBe(400);
    expect(fieldMessage(low.text, 'preorderLimit')).toBe('3 copies are already pre-ordered, so the limit cannot be lower.');
    expect(await bookRow(id)).toMatchObject({
      preorderLimit: 10,
      description: 'A cat keeps the lamp lit through the longest night of the year.',
    });

    await shop.db('books').where({ id }).update({ preordered: 1 });
    const one = await edit(id, { ...fields, preorderLimit: '0' });
    expect(fieldMessage(one.text, 'preorderLimit')).toBe('The pre-order limit must be at least 1 copy; empty for no limit.');

    expect((await edit(id, { ...fields, preorderLimit: '1' })).status).toBe(303);
    expect(await bookRow(id)).toMatchObject({ preorderLimit: 1, description: 'Changed with the limit.' });
    expect((await edit(id, { ...fields, preorderLimit: '' })).status).toBe(303);
    expect(await bookRow(id)).toMatchObject({ preorderLimit: null });
  });

  it('checks the limit against pre-orders taken while the edit waited for the book: the limit holds', async () => {
    const id = await forthcoming('The Last Lantern', { preorderLimit: '10' });
    const fields = { title: 'The Last Lantern', stock: '0', takesPreorders: 'on', publishedOn: '2027-03-02', preorderLimit: '4' };
    const page = await agent.get(`/admin/books/${id}/edit`).expect(200);
    // A pre-order takes copies as a checkout does: under the book's row lock. The edit is sent
    // while that lock is held, so it reads the copies pre-ordered only once they are counted.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const preordering = shop.db.transaction(async (trx) => {
      // The UPDATE keeps the row locked until the commit (SQLite: the one writer until then).
      await trx('books').where({ id }).update({ preordered: 6 });
      await released;
    });
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const editing = agent
      .post(`/admin/books/${id}`)
      .type('form')
      .send({ _csrf: token, ...bookFormFields({ isbn: '', ...fields }) })
      .then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 150));
    release();
    await preordering;
    const res = await editing;
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'preorderLimit')).toBe('6 copies are already pre-ordered, so the limit cannot be lower.');
    expect(await bookRow(id)).toMatchObject({ preorderLimit: 10, preordered: 6 });
  });
});
