import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, formToken, type TestShop } from '../../helpers/app.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';

// A forthcoming title on its page, on its card, in the catalogue's Coming soon choice and in
// its JSON-LD, as the shop's day (SHOP_TIME_ZONE's, moved here by the test) reaches it.

const OUT_ON = '2027-03-02';
let day = '2026-11-28';
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ today: () => day });
});
afterAll(() => shop.close());
beforeEach(() => {
  day = '2026-11-28';
});

interface TitleState {
  publishedOn?: string;
  inStock?: number;
  takesPreorders?: boolean;
  preorderLimit?: number | null;
  preordered?: number;
}

/** Sets a seeded book's date, shelf and pre-orders, as the operator would, and tells the catalogue. */
async function makeTitle(id: number, state: TitleState): Promise<{ id: number; title: string }> {
  const change = { publishedOn: OUT_ON, inStock: 0, takesPreorders: true, preorderLimit: null, preordered: 0, ...state };
  await shop.db.transaction(async (trx) => {
    await trx('books').where({ id }).update(change);
    await bumpCatalogueVersion(trx);
  });
  const { title } = await shop.db('books').where({ id }).first<{ title: string }>('title');
  return { id, title };
}

const page = async (path: string) => (await shop.browser().get(path).expect(200)).text;
const addForm = (html: string) => /<form method="post" action="\/cart" class="add-to-cart[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
const menu = (html: string) =>
  [...(/<select id="quantity"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '').matchAll(/<option value="(\d+)"/g)].map((m) =>
    Number(m[1]),
  );
const badge = (html: string) => /<p class="price-line">[\s\S]*?<span class="badge ([a-z-]+)">([^<]+)<\/span>/.exec(html)?.slice(1);
const jsonLd = (html: string) =>
  JSON.parse(/<script type="application\/ld\+json">(.+?)<\/script>/s.exec(html)![1]!) as { offers: Record<string, unknown> };
function card(html: string, id: number): string {
  const found = [...html.matchAll(/<article class="book-card">[\s\S]*?<\/article>/g)].find((m) => m[0].includes(`href="/books/${id}"`));
  return found?.[0] ?? '';
}

describe('the book page of a forthcoming title', () => {
  it('taking pre-orders: Coming Soon, the day it is out, a menu of 1 to 5 and a Pre-order button posting to the cart', async () => {
    const { id } = await makeTitle(2, { inStock: 0, preorderLimit: null });
    const html = await page(`/books/${id}`);
    expect(badge(html)).toEqual(['badge-out', 'Coming Soon']);
    expect(html).toContain('<span class="out-on">Out March 2, 2027</span>');
    const form = addForm(html);
    expect(form).toContain('data-add-to-cart ');
    expect(form).toContain(`name="bookId" value="${id}"`);
    expect(menu(html)).toEqual([1, 2, 3, 4, 5]);
    expect(form).toMatch(/<button type="submit"[^>]*>Pre-order<\/button>/);
    expect(form).not.toContain('Add to Cart');
    expect(form).not.toContain('disabled');
    expect(form).not.toContain('left to pre-order');
    expect(html).not.toContain('class="notify-form"');
  });

  it('with copies on the shelf before the day: still a pre-order, never Add to Cart', async () => {
    const { id } = await makeTitle(2, { inStock: 40, preorderLimit: null });
    const html = await page(`/books/${id}`);
    expect(badge(html)).toEqual(['badge-out', 'Coming Soon']);
    expect(addForm(html)).toMatch(/>Pre-order<\/button>/);
    expect(addForm(html)).not.toContain('Add to Cart');
  });

  it('with few pre-order copies left: the menu stops at them and the page says how many', async () => {
    const { id } = await makeTitle(2, { preorderLimit: 200, preordered: 197 });
    const html = await page(`/books/${id}`);
    expect(menu(html)).toEqual([1, 2, 3]);
    expect(addForm(html)).toContain('Only 3 copies left to pre-order.');
  });

  it('with every pre-order copy taken: says so, offers the email form, and no menu or button to press', async () => {
    const { id } = await makeTitle(2, { preorderLimit: 200, preordered: 200 });
    const html = await page(`/books/${id}`);
    expect(badge(html)).toEqual(['badge-out', 'Coming Soon']);
    expect(html).toContain('<span class="out-on">Out March 2, 2027</span>');
    expect(html).toContain('Every pre-order copy has been taken.');
    expect(html).not.toContain('<select id="quantity"');
    expect(addForm(html)).toMatch(/<button type="submit" disabled>Pre-order<\/button>/);
    expect(html).toContain(`action="/books/${id}/notify"`);
    expect(html).toContain("Email me when it's out");
  });

  it('without pre-orders and without copies: as any Coming Soon book, with no empty menu', async () => {
    const { id } = await makeTitle(2, { takesPreorders: false, inStock: 0 });
    // The book itself: the recommendations below it may hold a seeded forthcoming title.
    const html = (await page(`/books/${id}`)).split('<section class="recommended"')[0]!;
    expect(badge(html)).toEqual(['badge-out', 'Coming Soon']);
    expect(html).not.toContain('class="out-on"');
    expect(html).not.toContain('<select id="quantity"');
    expect(addForm(html)).toMatch(/<button type="submit" disabled>Add to Cart<\/button>/);
    expect(html).toContain("Email me when it's back");
    expect(html).not.toContain('Pre-order');
  });

  it('without pre-orders but with copies: sold as today', async () => {
    const { id } = await makeTitle(2, { takesPreorders: false, inStock: 25 });
    const html = await page(`/books/${id}`);
    expect(badge(html)).toEqual(['badge-in-stock', 'In Stock']);
    expect(addForm(html)).toMatch(/<button type="submit">Add to Cart<\/button>/);
    expect(menu(html)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('pressing Pre-order', () => {
  it('on the card without JavaScript: the form as sent puts one copy in the cart as a pre-order and comes back', async () => {
    const { id } = await makeTitle(9, { preorderLimit: null });
    const agent = shop.browser();
    const html = card((await agent.get('/books').expect(200)).text, id);
    const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
    expect(fields).toEqual({ _csrf: '', bookId: String(id), quantity: '1', returnTo: '/books' });
    const res = await agent.post('/cart').type('form').send(fields).expect(303);
    expect(res.headers.location).toBe('/books');
    const cart = (await agent.get('/cart').expect(200)).text;
    expect(cart).toContain(`href="/books/${id}"`);
    expect(cart).toContain('Pre-order · out March 2, 2027');
  });

  it('on the book page without JavaScript: the chosen quantity goes in the cart', async () => {
    const { id } = await makeTitle(9, { preorderLimit: 10 });
    const agent = shop.browser();
    const html = (await agent.get(`/books/${id}`).expect(200)).text;
    await agent
      .post('/cart')
      .type('form')
      .send({ _csrf: formToken(addForm(html)), bookId: String(id), quantity: '3' })
      .expect(303);
    const token = await csrfTokenFor(agent);
    const lines = (await agent.get('/api/cart').set('x-csrf-token', token).expect(200)).body as Array<{ bookId: number; quantity: number }>;
    expect(lines.find((line) => line.bookId === id)?.quantity).toBe(3);
  });

  it('with JavaScript: the islands add it through the cart API as they add any book', async () => {
    const { id } = await makeTitle(9, { preorderLimit: 10 });
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: id, quantity: 2 }).expect(201);
    const lines = (await agent.get('/api/cart').expect(200)).body as Array<{ bookId: number; quantity: number }>;
    expect(lines.find((line) => line.bookId === id)?.quantity).toBe(2);
  });
});

describe('the JSON-LD of a title', () => {
  it.each([
    ['taking pre-orders', { preorderLimit: 10 }, { availability: 'https://schema.org/PreOrder', availabilityStarts: OUT_ON }],
    ['with every pre-order copy taken', { preorderLimit: 10, preordered: 10 }, { availability: 'https://schema.org/SoldOut' }],
    ['with no copies and no pre-orders', { takesPreorders: false }, { availability: 'https://schema.org/OutOfStock' }],
    ['out, with no copies though it took pre-orders', { publishedOn: '2026-01-15' }, { availability: 'https://schema.org/OutOfStock' }],
    ['in stock', { publishedOn: '2026-01-15', inStock: 30 }, { availability: 'https://schema.org/InStock' }],
  ] as const)('%s says %j', async (_, state, expected) => {
    const { id } = await makeTitle(3, state);
    const { offers } = jsonLd(await page(`/books/${id}`));
    expect({ availability: offers.availability, availabilityStarts: offers.availabilityStarts }).toEqual({
      availabilityStarts: undefined,
      ...expected,
    });
  });
});

describe('the catalogue card of a forthcoming title', () => {
  it('shows Coming Soon, the day it is out and a Pre-order button that posts one copy to the cart', async () => {
    const { id, title } = await makeTitle(4, { preorderLimit: null });
    const html = card(await page('/books'), id);
    expect(html).toContain('<span class="badge badge-out">Coming Soon</span> <span class="out-on">Out March 2, 2027</span>');
    expect(html).toMatch(
      /<form method="post" action="\/cart" class="book-card-buy" data-add-to-cart-card data-book-id="\d+" data-preorder>/,
    );
    expect(html).toContain(`<button type="submit" class="add-button" aria-label="Pre-order: ${title}">Pre-order</button>`);
    expect(html).toContain(`name="bookId" value="${id}"`);
    expect(html).toContain('name="quantity" value="1"');
    expect(html).not.toContain('Add to Cart');
  });

  it('with every pre-order copy taken: the day it is out and no button', async () => {
    const { id } = await makeTitle(4, { preorderLimit: 5, preordered: 5 });
    const html = card(await page('/books'), id);
    expect(html).toContain('Out March 2, 2027');
    expect(html).toContain('Pre-orders all taken');
    expect(html).not.toContain('<button');
  });

  it('without pre-orders: Coming Soon as today, without a day', async () => {
    const { id } = await makeTitle(4, { takesPreorders: false });
    const html = card(await page('/books'), id);
    expect(html).toContain('<span class="badge badge-out">Coming Soon</span>');
    expect(html).not.toContain('Out ');
    expect(html).not.toContain('<button');
  });

  it('on the home page and beside another book too', async () => {
    const { id } = await makeTitle(4, { preorderLimit: null });
    const home = await page('/');
    if (home.includes(`href="/books/${id}"`)) expect(card(home, id)).toContain('>Pre-order</button>');
    const others = (await shop.db('books').whereNot({ id }).where({ hidden: false }).pluck('id')) as number[];
    let seen = 0;
    for (const other of others) {
      const html = (await page(`/books/${other}`)).split('Recommended Further Readings')[1] ?? '';
      if (!html.includes(`href="/books/${id}"`)) continue;
      expect(card(html, id)).toContain('>Pre-order</button>');
      seen++;
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe('the Coming soon choice on /books', () => {
  it('lists only the titles published after the shop day, taking pre-orders or not', async () => {
    await makeTitle(5, { preorderLimit: null });
    await makeTitle(6, { takesPreorders: false, inStock: 12 });
    await makeTitle(7, { publishedOn: day, inStock: 3 });
    const forthcoming = (await shop
      .db('books')
      .where({ hidden: false })
      .where('publishedOn', '>', day)
      .orderBy('id')
      .pluck('id')) as number[];
    expect(forthcoming).toEqual(expect.arrayContaining([5, 6]));
    expect(forthcoming).not.toContain(7);

    const html = await page('/books?show=coming-soon');
    const listed = [...html.matchAll(/<article class="book-card">\s*<a href="\/books\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(listed.sort((a, b) => a - b)).toEqual(forthcoming);
    expect(html).toContain(`${forthcoming.length} book${forthcoming.length === 1 ? '' : 's'} found`);
    expect(html).toContain('<option value="coming-soon" selected>Coming soon</option>');
  });

  it('offers the choice in the finder, every book by default', async () => {
    const html = await page('/books');
    expect(html).toMatch(/<label for="finder-show">Show<\/label>\s*<select id="finder-show" name="show">/);
    expect(html).toContain('<option value="" selected>All books</option>');
    expect(html).toContain('<option value="coming-soon">Coming soon</option>');
  });

  it('keeps the age band and the sort with it', async () => {
    await makeTitle(5, { preorderLimit: null });
    const html = await page('/books?show=coming-soon&sort=title&age=');
    expect(html).toContain('<option value="coming-soon" selected>Coming soon</option>');
    expect(html).toContain('<option value="title" selected>');
  });

  it('refuses a value it does not know with a notice and every book, never an error', async () => {
    const all = await page('/books');
    const res = await shop.browser().get('/books?show=bargains').expect(200);
    expect(res.text).toContain('We can&#39;t show only \u201cbargains\u201d, so every book is shown.');
    const count = (html: string) => /(\d+) books? found/.exec(html)?.[1];
    expect(count(res.text)).toBe(count(all));
  });

  it('says so when nothing is coming', async () => {
    const later = await shop.db('books').where('publishedOn', '>', day).pluck('id');
    try {
      await shop.db.transaction(async (trx) => {
        await trx('books').whereIn('id', later).update({ publishedOn: '2020-01-01' });
        await bumpCatalogueVersion(trx);
      });
      const html = await page('/books?show=coming-soon');
      expect(html).toContain('0 books found');
      expect(html).toContain('Every book we have announced is already out.');
      expect(html).toContain('href="/books" role="button" class="secondary">Show all books</a>');
    } finally {
      await shop.db.transaction(async (trx) => {
        await trx('books').whereIn('id', later).update({ publishedOn: OUT_ON });
        await bumpCatalogueVersion(trx);
      });
    }
  });
});

describe('a kept page at the shop midnight', () => {
  it('the book page, its card and the Coming soon list change when the publication day arrives, with no catalogue change', async () => {
    const { id } = await makeTitle(8, { publishedOn: '2026-12-01', inStock: 30, preorderLimit: null });
    day = '2026-11-30';
    const before = await shop.browser().get(`/books/${id}`).expect(200);
    const again = await shop.browser().get(`/books/${id}`).expect(200);
    // Kept: the same page for every visitor without a session.
    expect(again.headers.etag).toBe(before.headers.etag);
    expect(addForm(before.text)).toMatch(/>Pre-order<\/button>/);
    const listBefore = await page('/books?show=coming-soon');
    expect(listBefore).toContain(`href="/books/${id}"`);
    const gridBefore = await shop.browser().get('/books').expect(200);
    expect(card(gridBefore.text, id)).toContain('>Pre-order</button>');

    day = '2026-12-01';
    const after = await shop.browser().get(`/books/${id}`).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(badge(after.text)).toEqual(['badge-in-stock', 'In Stock']);
    expect(addForm(after.text)).toMatch(/>Add to Cart<\/button>/);
    expect(after.text).not.toContain('Out December 1, 2026');
    expect(jsonLd(after.text).offers.availability).toBe('https://schema.org/InStock');
    expect(await page('/books?show=coming-soon')).not.toContain(`href="/books/${id}"`);
    const gridAfter = await shop.browser().get('/books').expect(200);
    expect(gridAfter.headers.etag).not.toBe(gridBefore.headers.etag);
    expect(card(gridAfter.text, id)).toContain('>Add to Cart</button>');
  });

  it('a page nothing on it changes for keeps its ETag when the day turns', async () => {
    await makeTitle(8, { publishedOn: '2026-12-01', inStock: 30, preorderLimit: null });
    // Book 1 is long out: the turn of a day moves nothing on its page but the recommendations, which the UTC day chooses.
    const before = await shop.browser().get('/books/1?kept').expect(200);
    day = '2026-11-29';
    const after = await shop.browser().get('/books/1?kept').expect(200);
    expect(after.headers.etag).toBe(before.headers.etag);
  });
});
