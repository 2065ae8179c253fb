import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { textOf } from '../../../helpers/admin-fixtures.ts';
import { addBook, fieldMessage, postAdminForm } from '../../../helpers/book-admin.ts';
import { Buyer, stockOf } from '../../../helpers/checkout.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';

let shop: TestShop;
let agent: supertest.Agent;

beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

const setShelf = (id: number, stock: string, back = '/admin/books') =>
  postAdminForm(agent, back, `/admin/books/${id}/stock`, { stock, back });

/** A parent with `quantity` copies of the book held by a checkout in progress. */
async function holdCopies(bookId: number, quantity: number): Promise<Buyer> {
  const buyer = new Buyer(shop);
  await buyer.add(bookId, quantity);
  const { stripeCustomerId } = await buyer.createAccount();
  expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);
  return buyer;
}

describe('stock from the books list', () => {
  it('sets the copies on the shelf with the inline form, back to the same list, with an audit entry', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Restocked After A Print Run', stock: '2' });
    const res = await setShelf(id, '40', '/admin/books?stock=low');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/books?stock=low');
    expect(await stockOf(shop, id)).toBe(40);
    const audit = await shop.db('auditLog').where({ bookId: id, action: 'book.stock' }).first();
    expect(JSON.parse(audit.afterJson)).toEqual({ shelf: 40, held: 0, inStock: 40 });
  });

  it('refuses negative or fractional stock with a message and changes nothing', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Never Negative', stock: '5' });
    for (const [stock, message] of [
      ['-1', 'Stock cannot be negative.'],
      ['1.5', 'Stock must be a whole number of copies, like 12.'],
      ['', 'Please enter the number of copies.'],
    ] as const) {
      const res = await setShelf(id, stock);
      expect(res.status).toBe(303);
      expect(textOf((await agent.get(res.headers.location!).expect(200)).text)).toContain(message);
      expect(await stockOf(shop, id)).toBe(5);
    }
  });

  it('counts held copies as on the shelf: the shop sells the rest, and never fewer than the held copies are accepted', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Held While Restocking', stock: '5' });
    await holdCopies(id, 3);
    expect(await stockOf(shop, id)).toBe(2);
    const list = await agent.get('/admin/books?page=1').expect(200);
    expect(list.text).toMatch(new RegExp(`id="stock-${id}" name="stock"[^>]*value="5"`));
    expect(textOf(list.text)).toContain('3 held by checkouts');

    // 4 on the shelf, 3 of them held: 1 left to sell.
    await setShelf(id, '4');
    expect(await stockOf(shop, id)).toBe(1);

    const refused = await setShelf(id, '2');
    expect(textOf((await agent.get(refused.headers.location!).expect(200)).text)).toContain(
      '3 copies are held by checkouts in progress, so the shelf cannot have fewer: enter 3 or more.',
    );
    expect(await stockOf(shop, id)).toBe(1);

    // The edit form's stock field means the same, and says so beside the field.
    const form = await postAdminForm(agent, `/admin/books/${id}/edit`, `/admin/books/${id}`, {
      title: 'Held While Restocking',
      author: 'Mara Quill',
      description: 'Words.',
      price: '11.00',
      stock: '1',
      publishedOn: '2026-09-01',
      publisher: 'Little Lantern Books',
      isbn: '',
      ageRange: '3-5',
      pages: '',
      amazonUrl: '',
      amazonKindleUrl: '',
    });
    expect(form.status).toBe(409);
    expect(fieldMessage(form.text, 'stock')).toBe(
      '3 copies are held by checkouts in progress, so the shelf cannot have fewer: enter 3 or more.',
    );
    expect(await stockOf(shop, id)).toBe(1);

    // Setting exactly the held copies leaves nothing to sell: the shop says Coming Soon.
    await setShelf(id, '3');
    expect(await stockOf(shop, id)).toBe(0);
    expect(textOf((await shop.browser().get(`/books/${id}`).expect(200)).text)).toContain('Coming Soon');
  });

  it('shows a change on the next anonymous page view: 0 copies is Coming Soon at once', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Cached Then Sold Out', stock: '7' });
    const visitor = shop.browser();
    expect(textOf((await visitor.get(`/books/${id}`).expect(200)).text)).toContain('Only 7 left');
    expect(textOf((await visitor.get(`/books/${id}`).expect(200)).text)).toContain('Only 7 left');
    await setShelf(id, '0');
    expect(textOf((await visitor.get(`/books/${id}`).expect(200)).text)).toContain('Coming Soon');

    const edited = await postAdminForm(agent, `/admin/books/${id}/edit`, `/admin/books/${id}`, {
      title: 'Cached Then Renamed',
      author: 'Mara Quill',
      description: 'Words.',
      price: '11.00',
      stock: '0',
      publishedOn: '2026-09-01',
      publisher: 'Little Lantern Books',
      isbn: '',
      ageRange: '6-8',
      pages: '',
      amazonUrl: '',
      amazonKindleUrl: '',
    });
    expect(edited.status).toBe(303);
    const page = textOf((await visitor.get(`/books/${id}`).expect(200)).text);
    expect(page).toContain('Cached Then Renamed');
    expect(page).toContain('Ages 6-8');
    expect(textOf((await visitor.get('/books').expect(200)).text)).toContain('Cached Then Renamed');
  });
});

describe('the low-stock view and its threshold', () => {
  it('lists books on sale at or below the threshold (3 by default), fewest first', async () => {
    const at = await addBook(agent, { isbn: '', title: 'Exactly Three Left', stock: '3' });
    const above = await addBook(agent, { isbn: '', title: 'Four Left Is Fine', stock: '4' });
    const none = await addBook(agent, { isbn: '', title: 'None Left At All', stock: '0' });
    const hidden = await addBook(agent, { isbn: '', title: 'Hidden And Low', stock: '1' });
    await postAdminForm(agent, `/admin/books/${hidden}/edit`, `/admin/books/${hidden}/hide`, {});
    const html = (await agent.get('/admin/books?stock=low').expect(200)).text;
    expect(textOf(html)).toContain('3 or fewer copies');
    const listed = [...html.matchAll(/<th scope="row"[^>]*><a href="\/admin\/books\/(\d+)\/edit">/g)].map((m) => Number(m[1]));
    // The rule itself, over every book in the shop (earlier tests' included): on sale, at most 3 copies, fewest first.
    const rule = await shop.db('books').where('inStock', '<=', 3).where('hidden', false).orderBy(['inStock', 'id']).pluck('id');
    expect(listed).toEqual(rule);
    expect(listed).toContain(at);
    expect(listed.indexOf(none)).toBeLessThan(listed.indexOf(at));
    expect(listed).not.toContain(above);
    expect(listed).not.toContain(hidden);
  });

  it('takes a new threshold from the settings page or the low-stock view, and records it', async () => {
    const res = await postAdminForm(agent, '/admin/settings', '/admin/settings', { threshold: '4', from: 'settings' });
    expect(res.status).toBe(303);
    expect(textOf((await agent.get('/admin/books?stock=low').expect(200)).text)).toContain('Four Left Is Fine');
    const fromView = await postAdminForm(agent, '/admin/books?stock=low', '/admin/settings', { threshold: '2', from: 'low-stock' });
    expect(fromView.headers.location).toBe('/admin/books?stock=low');
    expect(textOf((await agent.get('/admin/books?stock=low').expect(200)).text)).not.toContain('Exactly Three Left');
    const audits = await shop.db('auditLog').where({ action: 'settings.low-stock-threshold' }).orderBy('id');
    expect(audits.map((a) => JSON.parse(a.afterJson).threshold)).toEqual([4, 2]);
  });

  it('refuses a bad threshold beside its field and keeps the old one', async () => {
    const res = await postAdminForm(agent, '/admin/settings', '/admin/settings', { threshold: '-1', from: 'settings' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The threshold cannot be negative.');
    expect(res.text).toMatch(/id="setting-threshold"[^>]*aria-invalid="true"/);
    expect((await shop.db('settings').where({ key: 'low_stock_threshold' }).first()).value).toBe('2');
  });
});

describe('the book page and its JSON-LD', () => {
  it('shows the age range and carries isbn and typicalAgeRange', async () => {
    const id = await addBook(agent, {
      isbn: '978-0-306-40615-7',
      title: 'Structured Data Book',
      ageRange: '4-6',
      publisher: 'Lantern Press',
    });
    const page = await shop.browser().get(`/books/${id}`).expect(200);
    expect(textOf(page.text)).toContain('Ages 4-6');
    expect(textOf(page.text)).toContain('Lantern Press');
    const json = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(page.text)![1]!;
    const ld = JSON.parse(json);
    expect(ld).toMatchObject({ isbn: '9780306406157', typicalAgeRange: '4-6', publisher: { name: 'Lantern Press' } });
  });
});
