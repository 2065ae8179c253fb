import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../../seeds/books.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer, setStock } from '../../helpers/checkout.ts';
import { rawGet } from '../../helpers/raw-http.ts';

// Pages for visitors without a session come from a cache keyed by the catalogue version.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const raw = (path: string, headers: Record<string, string> = {}) => rawGet(shop.app, path, headers);

function stockBadge(html: string): string | undefined {
  return /<span class="badge badge-[a-z-]+">([^<]+)<\/span>/.exec(html)?.[1];
}

describe('anonymous catalogue pages', () => {
  it.each(['/', '/books'])('%s twice gives the same body and the same strong ETag, revalidated with 304', async (path) => {
    const first = await raw(path, { 'Accept-Encoding': 'identity' });
    const second = await raw(path, { 'Accept-Encoding': 'identity' });
    expect(first.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.vary).toMatch(/Accept-Encoding/);
    expect(first.headers.vary).toMatch(/Cookie/);
    expect(first.headers['set-cookie']).toBeUndefined();

    const revalidated = await raw(path, { 'Accept-Encoding': 'identity', 'If-None-Match': first.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });

  it.each(['br', 'gzip'])('sends /books as %s that decompresses to the identity body', async (encoding) => {
    const identity = await raw('/books', { 'Accept-Encoding': 'identity' });
    const packed = await raw('/books', { 'Accept-Encoding': encoding });
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(packed.headers['content-type']).toMatch(/^text\/html/);
    expect(packed.body.length).toBeLessThan(identity.body.length);
    expect(packed.status).toBe(200);
    expect(packed.text()).toBe(identity.text());
    expect(packed.headers.etag).not.toBe(identity.headers.etag);
  });

  it('picks brotli when the browser offers both', async () => {
    const res = await raw('/books', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('shows a book page with the stock left after a purchase, under a new ETag', async () => {
    await setStock(shop, 5, 4);
    const before = await raw('/books/5', { 'Accept-Encoding': 'identity' });
    expect(stockBadge(before.body.toString())).toBe('Only 4 left');

    const buyer = new Buyer(shop);
    await buyer.add(5, 1);
    const { stripeCustomerId } = await buyer.createAccount();
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);

    const after = await raw('/books/5', { 'Accept-Encoding': 'identity' });
    expect(stockBadge(after.body.toString())).toBe('Only 3 left');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('answers /api/books from memory with the stock left after a purchase', async () => {
    await setStock(shop, 6, 4);
    const inStock = async () => {
      const res = await raw('/api/books', { 'Accept-Encoding': 'identity' });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      const books = JSON.parse(res.body.toString()) as Array<{ id: number; inStock: number }>;
      return { etag: res.headers.etag, stock: books.find((book) => book.id === 6)?.inStock };
    };
    const before = await inStock();
    expect(before.stock).toBe(4);
    expect((await inStock()).etag).toBe(before.etag);

    const buyer = new Buyer(shop);
    await buyer.add(6, 1);
    const { stripeCustomerId } = await buyer.createAccount();
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);

    const after = await inStock();
    expect(after.stock).toBe(3);
    expect(after.etag).not.toBe(before.etag);
  });

  it('lists books seeded into an empty catalogue on the next page', async () => {
    const empty = await buildTestShop({ seed: false });
    try {
      expect((await supertest(empty.app).get('/books').expect(200)).text).toContain('No books found');
      await seedCatalogue(empty.db);
      const res = await supertest(empty.app).get('/books').expect(200);
      expect(res.text).not.toContain('No books found');
      expect(res.text).toMatch(/class="book-card"/);
    } finally {
      await empty.close();
    }
  });

  it('gives a visitor with items in the cart their own badge, never the cached page', async () => {
    const cached = await raw('/books', { 'Accept-Encoding': 'identity' });
    const buyer = new Buyer(shop);
    await buyer.add(1, 2);
    const own = await buyer.agent.get('/books');
    expect(own.text).toContain('aria-label="Shopping cart, 2 items"');
    expect(cached.body.toString()).toContain('aria-label="Shopping cart, 0 items"');
    expect(own.headers.etag).not.toBe(cached.headers.etag);
    expect(own.text).not.toBe(cached.body.toString());
  });
});
