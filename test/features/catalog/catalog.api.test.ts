import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('GET /api/books', () => {
  it('lists every book with the spec field names and decimal-string prices', async () => {
    const res = await shop.browser().get('/api/books').expect(200).expect('content-type', /json/);
    expect(res.body.length).toBeGreaterThanOrEqual(12);
    const book = res.body[0];
    for (const field of ['id', 'title', 'description', 'price', 'imageUrl', 'inStock', 'amazonUrl', 'amazonKindleUrl']) {
      expect(book).toHaveProperty(field);
    }
    expect(book.price).toMatch(/^\d+\.\d{2}$/);
    expect(typeof book.inStock).toBe('number');
  });

  it('answers recommendations: excludes the book, limits, shuffles', async () => {
    const res = await shop.browser().get('/api/books?exclude=1&limit=3&random=true').expect(200);
    expect(res.body).toHaveLength(3);
    expect(res.body.map((b: { id: number }) => b.id)).not.toContain(1);

    // Shuffled: the whole catalogue asked for twenty times comes back in more than one order
    // (the same order every time by chance is about one in 15!^19), each time the same books.
    const catalogue = (await shop.browser().get('/api/books').expect(200)).body.map((b: { id: number }) => b.id) as number[];
    expect(catalogue.length).toBeGreaterThan(2);
    const orders = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const ids = (await shop.browser().get('/api/books?random=true&limit=100').expect(200)).body.map(
        (b: { id: number }) => b.id,
      ) as number[];
      expect([...ids].sort((a, b) => a - b)).toEqual([...catalogue].sort((a, b) => a - b));
      orders.add(ids.join(','));
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it.each([
    ['limit=abc', 'limit must be a whole number'],
    ['limit=0', 'limit must be at least 1'],
    ['limit=1000', 'limit must be at most 100'],
    ['exclude=-3', 'Book id must be a positive whole number'],
    ['random=yes', "random must be 'true' or 'false'"],
  ])('refuses ?%s with 400 and a readable message', async (query, message) => {
    const res = await shop.browser().get(`/api/books?${query}`).expect(400);
    expect(res.body).toEqual({ message });
  });
});

describe('GET /api/books/:id', () => {
  it('returns one book', async () => {
    const res = await shop.browser().get('/api/books/2').expect(200);
    expect(res.body.id).toBe(2);
    expect(res.body.title).toEqual(expect.any(String));
  });

  it('answers 404 "Book not found" for an unknown id', async () => {
    const res = await shop.browser().get('/api/books/99999').expect(404);
    expect(res.body).toEqual({ message: 'Book not found' });
  });

  it.each(['abc', '1.5', '0', '99999999999'])('answers 400 for the malformed id %s', async (id) => {
    const res = await shop.browser().get(`/api/books/${id}`).expect(400);
    expect(res.body.message).toMatch(/Book id/);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await shop.browser().get('/api/nothing-here').expect(404);
    expect(res.body).toEqual({ message: 'Not found' });
  });
});
