import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { skippedHeadingLevels } from '../../helpers/html.ts';
import { Book } from '../../../src/models/Book.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { createCatalogService } from '../../../src/features/catalog/catalog.service.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

async function setStock(id: number, inStock: number, links: Partial<Pick<Book, 'amazonUrl' | 'amazonKindleUrl'>> = {}) {
  await shop.db.transaction(async (trx) => {
    await Book.query(trx)
      .findById(id)
      .patch({ inStock, ...links });
    await bumpCatalogueVersion(trx);
  });
}

describe('GET /books', () => {
  it('renders every book as a card linking to its page', async () => {
    const res = await shop.browser().get('/books').expect(200);
    expect(res.text).toContain('<h1>Our Books</h1>');
    const cards = res.text.match(/class="book-card"/g) ?? [];
    expect(cards.length).toBeGreaterThanOrEqual(12);
    expect(res.text).toMatch(/href="\/books\/\d+"/);
  });

  it('keeps heading levels in order: the cards are titled one level under the page', async () => {
    const res = await shop.browser().get('/books').expect(200);
    expect(skippedHeadingLevels(res.text)).toEqual([]);
  });

  it('creates no session while browsing', async () => {
    const res = await shop.browser().get('/books').expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it("says 'No books found' when the catalogue is empty", async () => {
    const empty = await buildTestShop({ seed: false });
    try {
      const res = await empty.browser().get('/books').expect(200);
      expect(res.text).toContain('No books found');
    } finally {
      await empty.close();
    }
  });

  it('shows the error state when the database fails', async () => {
    const broken = await buildTestShop();
    try {
      await broken.db.schema.renameTable('books', 'books_away');
      const res = await broken.browser().get('/books').expect(503);
      expect(res.text).toContain('Oops! Something went wrong');
      expect(res.text).toContain("We couldn't load the books. Please try again later.");
    } finally {
      await broken.db.schema.renameTable('books_away', 'books');
      await broken.close();
    }
  });
});

describe('GET /books/:id', () => {
  it.each([
    [1, ['1']],
    [3, ['1', '2', '3']],
    [40, ['1', '2', '3', '4', '5']],
  ])('with %i in stock, the quantity menu offers %j', async (inStock, offered) => {
    await setStock(2, inStock);
    const res = await shop.browser().get('/books/2').expect(200);
    const menu = /<select id="quantity"[^>]*>([\s\S]*?)<\/select>/.exec(res.text)?.[1] ?? '';
    expect([...menu.matchAll(/<option value="(\d+)"/g)].map((m) => m[1])).toEqual(offered);
  });

  it('shows every element of the book page', async () => {
    const book = await Book.query(shop.db).findById(1);
    const res = await shop.browser().get('/books/1').expect(200);
    const html = res.text;
    expect(html).toContain('href="/books">Our Books</a>'); // breadcrumb
    expect(html).toContain(`<h1>${book!.title}</h1>`);
    expect(html).toContain('About This Book');
    expect(html).toContain('Add to Cart');
    expect(html).toContain('data-share');
    expect(html).toContain('Published by Little Lantern Books');
    expect(html).toMatch(/(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, 2024/);
    expect(html).toContain('Recommended Further Readings');
    const recommended = html.split('Recommended Further Readings')[1]!;
    expect(recommended.match(/class="book-card"/g)).toHaveLength(3);
    expect(recommended).not.toContain('href="/books/1"');
    for (let n = 1; n <= 5; n++) expect(html).toContain(`<option value="${n}">${n}</option>`);
    expect(html).not.toContain('<option value="6">');
  });

  it('reads in the order a phone shows it: cover, then title, byline and price together, then the buy form and Share', async () => {
    const html = (await shop.browser().get('/books/1').expect(200)).text.split('<section class="recommended"')[0]!;
    // A phone sets this group beside a smaller cover, with the buy form under both in the first screen.
    const heading = /<div class="book-heading">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(heading).toMatch(/<h1>[^<]+<\/h1>/);
    expect(heading).toContain('class="byline"');
    expect(heading).toContain('<span class="price">$');
    expect(heading).not.toContain('<form');
    const at = (marker: string) => html.indexOf(marker);
    const order = ['class="book-cover"', 'class="book-heading"', '<form method="post" action="/cart" class="add-to-cart', 'data-share'];
    expect(order.every((marker) => at(marker) > 0)).toBe(true);
    expect([...order].sort((a, b) => at(a) - at(b))).toEqual(order);
  });

  it('shows a book without a cover with the drawn placeholder, in a cover’s shape, and says so in its words', async () => {
    const book = await Book.query(shop.db).findById(6);
    await shop.db.transaction(async (trx) => {
      await Book.query(trx).findById(6).patch({ imageUrl: null });
      await bumpCatalogueVersion(trx);
    });
    try {
      const html = (await shop.browser().get('/books/6').expect(200)).text.split('<section class="recommended"')[0]!;
      const img = /<figure class="book-cover">\s*(<img[^>]*>)/.exec(html)?.[1] ?? '';
      expect(img).toContain('src="/images/placeholder-cover.svg"');
      expect(img).toContain(`alt="${book!.title.replace("'", '&#39;')}: cover coming soon"`);
      expect(img).toContain('width="600" height="900"');
    } finally {
      await shop.db.transaction(async (trx) => {
        await Book.query(trx).findById(6).patch({ imageUrl: book!.imageUrl });
        await bumpCatalogueVersion(trx);
      });
    }
  });

  it('keeps the same recommendations, and so the same ETag, through sales and all day', async () => {
    const recommendedIds = (html: string) =>
      [...html.split('Recommended Further Readings')[1]!.matchAll(/href="\/books\/(\d+)"/g)].map((m) => m[1]);
    const parent = shop.browser();
    await parent.get('/api/session').expect(200);
    const first = await parent.get('/books/1').expect(200);
    const again = await parent.get('/books/1').expect(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    await parent.get('/books/1').set('If-None-Match', first.headers.etag!).expect(304);
    // A visitor, another process: the same three books.
    const visitor = await shop.browser().get('/books/1').expect(200);
    expect(recommendedIds(visitor.text)).toEqual(recommendedIds(first.text));
    // Stock changes nobody sees on the page leave it as it was.
    await shop.db.transaction((trx) => bumpCatalogueVersion(trx));
    const afterSale = await shop.browser().get('/books/1').expect(200);
    expect(afterSale.headers.etag).toBe(visitor.headers.etag);
  });

  it('recommends other books each day', async () => {
    let day = 1;
    const catalog = createCatalogService(shop.db, shop.services.catalogue, { today: () => `2026-12-${String(day).padStart(2, '0')}` });
    const seen = new Set<string>();
    for (; day <= 6; day++) {
      const ids = (await catalog.recommendedFor(1)).map((book) => book.id);
      expect(ids).toHaveLength(3);
      expect(ids).not.toContain(1);
      expect((await catalog.recommendedFor(1)).map((book) => book.id)).toEqual(ids);
      seen.add(ids.join());
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it.each([
    [25, 'In Stock', 'badge-in-stock'],
    [11, 'In Stock', 'badge-in-stock'],
    [10, 'Only 10 left', 'badge-low'],
    [1, 'Only 1 left', 'badge-low'],
    [0, 'Coming Soon', 'badge-out'],
  ])('with %i copies shows the badge %s', async (copies, label, cls) => {
    await setStock(3, copies);
    const res = await shop.browser().get('/books/3').expect(200);
    expect(res.text).toContain(`<span class="badge ${cls}">${label}</span>`);
  });

  it("disables '#coming-soon' buy buttons with their tooltips and links real ones", async () => {
    await setStock(4, 5, { amazonUrl: '#coming-soon', amazonKindleUrl: '#coming-soon' });
    let res = await shop.browser().get('/books/4').expect(200);
    expect(res.text).toContain('aria-disabled="true" data-tooltip="hardcover coming soon" aria-describedby="soon-buy-hardcover"');
    expect(res.text).toContain('aria-disabled="true" data-tooltip="Kindle ebook coming soon" aria-describedby="soon-buy-kindle-ebook"');
    // The reason is text a screen reader reads with the button, and a phone shows without hovering.
    expect(res.text).toContain('<small id="soon-buy-hardcover" class="soon-note">Hardcover coming soon</small>');
    expect(res.text).toContain('<small id="soon-buy-kindle-ebook" class="soon-note">Kindle ebook coming soon</small>');

    await setStock(4, 5, { amazonUrl: 'https://www.amazon.com/dp/1234567890', amazonKindleUrl: null });
    res = await shop.browser().get('/books/4').expect(200);
    expect(res.text).toContain('href="https://www.amazon.com/dp/1234567890"');
    expect(res.text).not.toContain('Buy Kindle Ebook');
  });

  it('carries SEO metadata: description, Open Graph and schema.org JSON-LD', async () => {
    const res = await shop.browser().get('/books/1').expect(200);
    expect(res.text).toMatch(/<meta name="description" content="[^"]+">/);
    expect(res.text).toContain('<meta property="og:type" content="book">');
    const ld = /<script type="application\/ld\+json">(.+?)<\/script>/s.exec(res.text);
    const data = JSON.parse(ld![1]!);
    expect(data['@type']).toEqual(['Book', 'Product']);
    expect(data.offers.priceCurrency).toBe('USD');
  });

  it.each(['99999', 'abc', '-1', '1.5'])("answers /books/%s with 'Book Not Found' and 404", async (id) => {
    const res = await shop.browser().get(`/books/${id}`).expect(404);
    expect(res.text).toContain('Book Not Found');
    expect(res.text).toContain('Back to Books');
  });
});

describe('a catalogue card without JavaScript', () => {
  it('has an Add to Cart form that adds one copy and comes back to the catalogue', async () => {
    const agent = shop.browser();
    const page = await agent.get('/books').expect(200);
    const card = /<article class="book-card">([\s\S]*?)<\/article>/.exec(page.text)?.[1] ?? '';
    const id = /name="bookId" value="(\d+)"/.exec(card)?.[1];
    expect(id).toBeDefined();
    expect(card).toMatch(/<form method="post" action="\/cart" class="book-card-buy"/);
    expect(card).toContain('name="returnTo" value="/books"');
    expect(card).toMatch(/<button type="submit" class="add-button" aria-label="Add to Cart: [^"]+">Add to Cart<\/button>/);
    // The price is written as a parent reads money.
    expect(card).toMatch(/<p class="book-card-price">\$\d{1,3}(,\d{3})*\.\d\d<\/p>/);
    const res = await agent
      .post('/cart')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ _csrf: '', bookId: id, quantity: '1', returnTo: '/books' })
      .expect(303);
    expect(res.headers.location).toBe('/books');
    const after = await agent.get('/cart').expect(200);
    expect(after.text).toContain(`href="/books/${id}"`);
  });

  it('never sends the parent off the shop', async () => {
    const agent = shop.browser();
    const page = await agent.get('/books').expect(200);
    const id = /name="bookId" value="(\d+)"/.exec(page.text)?.[1];
    const res = await agent
      .post('/cart')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ _csrf: '', bookId: id, quantity: '1', returnTo: '//evil.example/' })
      .expect(303);
    expect(res.headers.location).toBe(`/books/${id}`);
  });
});
