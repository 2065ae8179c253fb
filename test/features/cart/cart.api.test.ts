import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toDecimal } from '../../../src/lib/money.ts';
import { Book } from '../../../src/models/Book.ts';
import { buildTestShop, csrfTokenFor, startSession, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

/** One browser with its CSRF token: what the cart drawer island has. */
async function visitor() {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  const send = (method: 'post' | 'put' | 'delete', path: string, body?: object) => {
    const req = agent[method](path).set('x-csrf-token', token);
    return body ? req.send(body) : req;
  };
  return {
    agent,
    send,
    cart: () =>
      agent
        .get('/api/cart')
        .expect(200)
        .then((r) => r.body),
  };
}

async function stock(bookId: number, inStock: number) {
  await Book.query(shop.db).findById(bookId).patch({ inStock });
}

beforeEach(async () => {
  await stock(1, 20);
  await stock(2, 3);
  await stock(5, 0);
});

describe('the cart API', () => {
  it('starts empty', async () => {
    const { cart } = await visitor();
    expect(await cart()).toEqual([]);
  });

  it('adds a book (quantity 1 by default) and lists it with the full book', async () => {
    const { send, cart } = await visitor();
    const res = await send('post', '/api/cart', { bookId: 1 }).expect(201);
    expect(res.body).toHaveLength(1);
    const [line] = await cart();
    expect(line).toMatchObject({ id: expect.any(Number), bookId: 1, quantity: 1 });
    expect(line.book).toMatchObject({
      id: 1,
      title: expect.any(String),
      price: expect.stringMatching(/^\d+\.\d\d$/),
      imageUrl: expect.any(String),
    });
  });

  it("answers each line's book as the spec's full book record, the one the catalogue answers", async () => {
    const { agent, send, cart } = await visitor();
    const record = (await agent.get('/api/books/1').expect(200)).body;
    const [added] = (await send('post', '/api/cart', { bookId: 1 }).expect(201)).body;
    const [listed] = await cart();
    for (const line of [added, listed, (await send('delete', '/api/cart/2').expect(200)).body[0]]) {
      expect(Object.keys(line).sort()).toEqual(['book', 'bookId', 'id', 'outOn', 'preorder', 'quantity']);
      expect(line).toMatchObject({ preorder: false, outOn: null });
      expect(line.book).toEqual(record);
    }
  });

  it('adds to an existing line rather than making a second one', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: 1, quantity: 2 }).expect(201);
    await send('post', '/api/cart', { bookId: 1, quantity: 3 }).expect(201);
    expect(await cart()).toMatchObject([{ bookId: 1, quantity: 5 }]);
  });

  it('keeps each browser\u2019s cart its own', async () => {
    const a = await visitor();
    const b = await visitor();
    await a.send('post', '/api/cart', { bookId: 1 }).expect(201);
    expect(await b.cart()).toEqual([]);
  });

  it('ignores a userId sent in the body', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: 1, quantity: 1, userId: 1 }).expect(201);
    const rows = await shop.db('carts').whereNotNull('user_id');
    expect(rows).toHaveLength(0);
    expect(await cart()).toHaveLength(1);
  });

  it('takes the price from the book, never from the client', async () => {
    const { send } = await visitor();
    const res = await send('post', '/api/cart', { bookId: 1, quantity: 1, price: '0.01' }).expect(201);
    const book = await Book.query(shop.db).findById(1);
    expect(res.body[0].book.price).toBe(toDecimal(book!.price));
  });

  it.each([
    [{ bookId: 99999 }, 404, 'Book not found'],
    [{ bookId: 'abc' }, 400, 'Book id must be a whole number'],
    [{ bookId: 1, quantity: 1.5 }, 400, 'Quantity must be a whole number'],
    [{ bookId: 1, quantity: 0 }, 400, 'Quantity must be at least 1'],
    [{ bookId: 2, quantity: 4 }, 409, 'Only 3 copies of'],
    [{ bookId: 5 }, 409, 'is sold out'],
  ])('refuses %o with %i and a readable message, changing nothing', async (body, status, message) => {
    const { send, cart } = await visitor();
    const res = await send('post', '/api/cart', body).expect(status);
    expect(res.body.message).toContain(message);
    expect(await cart()).toEqual([]);
  });

  it('refuses to add more than the copies in stock across additions', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: 2, quantity: 2 }).expect(201);
    const res = await send('post', '/api/cart', { bookId: 2, quantity: 2 }).expect(409);
    expect(res.body.message).toBe('Only 3 copies of "' + (await Book.query(shop.db).findById(2))!.title + '" are available.');
    expect(await cart()).toMatchObject([{ bookId: 2, quantity: 2 }]);
  });

  it('refuses a book off sale or sold out to a cart that already has lines, changing nothing', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: 1 }).expect(201);
    await Book.query(shop.db).findById(4).patch({ hidden: true, inStock: 10 });
    try {
      expect((await send('post', '/api/cart', { bookId: 4 }).expect(404)).body.message).toBe('Book not found');
    } finally {
      await Book.query(shop.db).findById(4).patch({ hidden: false });
    }
    await send('post', '/api/cart', { bookId: 5 }).expect(409);
    expect(await cart()).toMatchObject([{ bookId: 1, quantity: 1 }]);
  });

  it('sets a quantity, refuses one above stock, and removes the line below 1', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: 2 }).expect(201);
    await send('put', '/api/cart/2', { quantity: 3 }).expect(200);
    expect(await cart()).toMatchObject([{ bookId: 2, quantity: 3 }]);
    await send('put', '/api/cart/2', { quantity: 4 }).expect(409);
    expect(await cart()).toMatchObject([{ bookId: 2, quantity: 3 }]);
    const res = await send('put', '/api/cart/2', { quantity: 0 }).expect(200);
    expect(res.body).toEqual([]);
  });

  it('answers 404 when setting the quantity of a book not in the cart, 400 for a bad quantity', async () => {
    const { send } = await visitor();
    expect((await send('put', '/api/cart/1', { quantity: 2 }).expect(404)).body.message).toBe('That book is not in your cart.');
    await send('post', '/api/cart', { bookId: 1 }).expect(201);
    expect((await send('put', '/api/cart/1', { quantity: 'two' }).expect(400)).body.message).toBe('Quantity must be a whole number');
    expect((await send('put', '/api/cart/x', { quantity: 2 }).expect(400)).body.message).toBe('Book id must be a whole number');
  });

  it('removes one line and clears the cart', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: 1 }).expect(201);
    await send('post', '/api/cart', { bookId: 2 }).expect(201);
    await send('delete', '/api/cart/1').expect(200);
    expect(await cart()).toMatchObject([{ bookId: 2 }]);
    await send('delete', '/api/cart').expect(200);
    expect(await cart()).toEqual([]);
  });

  it('refuses changes without the CSRF token', async () => {
    const agent = shop.browser();
    await startSession(agent);
    await agent.post('/api/cart').send({ bookId: 1 }).expect(403);
  });

  it('survives a restart of the server', async () => {
    const { send, agent } = await visitor();
    await send('post', '/api/cart', { bookId: 1, quantity: 2 }).expect(201);
    const cookie = String((await agent.get('/api/session')).request.cookies ?? '');
    shop = await shop.restart();
    const res = await shop.browser().get('/api/cart').set('cookie', cookie).expect(200);
    expect(res.body).toMatchObject([{ bookId: 1, quantity: 2 }]);
  });
});

describe('merging a visitor cart into an account', () => {
  async function userWithCart(lines: Array<[number, number]>) {
    const [userId] = await shop
      .db('users')
      .insert({ email: `p${Date.now()}${Math.random()}@example.com`, password_hash: 'x', first_name: 'P' });
    const id = Number(userId);
    const [cartId] = await shop.db('carts').insert({ user_id: id });
    for (const [bookId, quantity] of lines) await shop.db('cart_items').insert({ cart_id: Number(cartId), book_id: bookId, quantity });
    return id;
  }

  it("changes a signed-in parent's own cart, and never an account's cart through a visitor's cart id", async () => {
    const userId = await userWithCart([[2, 1]]);
    const carts = (await import('../../../src/features/cart/cart.service.ts')).createCartService(shop.db, shop.services.shopDay);
    const accountCart = await shop.db('carts').where({ user_id: userId }).first();

    expect((await carts.addItem({ userId }, 1, 2)).items.map((l) => [l.bookId, l.quantity])).toEqual([
      [2, 1],
      [1, 2],
    ]);
    expect((await carts.removeItem({ userId }, 2)).map((l) => l.bookId)).toEqual([1]);

    expect(await carts.removeItem({ cartId: accountCart.id }, 1)).toEqual([]);
    const added = await carts.addItem({ cartId: accountCart.id }, 3, 1);
    expect(added.cartId).not.toBe(accountCart.id);
    expect((await carts.getItems({ userId })).map((l) => [l.bookId, l.quantity])).toEqual([[1, 2]]);
  });

  it('keeps the larger quantity of a book in both carts, caps it by stock and deletes the visitor cart', async () => {
    const { send, agent } = await visitor();
    await send('post', '/api/cart', { bookId: 1, quantity: 2 }).expect(201);
    await send('post', '/api/cart', { bookId: 2, quantity: 2 }).expect(201);
    // Book 2 has 3 copies: the account's 5 (kept from when there were more) is capped.
    const userId = await userWithCart([
      [2, 5],
      [3, 1],
    ]);
    const visitorCart = await shop.db('carts').whereNull('user_id').orderBy('id', 'desc').first();
    const carts = (await import('../../../src/features/cart/cart.service.ts')).createCartService(shop.db, shop.services.shopDay);

    await carts.mergeIntoAccount(visitorCart.id, userId);

    const merged = await carts.getItems({ userId });
    expect(merged.map((l) => [l.bookId, l.quantity]).sort()).toEqual([
      [1, 2],
      [2, 3],
      [3, 1],
    ]);
    expect(await shop.db('carts').where({ id: visitorCart.id })).toHaveLength(0);
    expect((await agent.get('/api/cart')).body).toEqual([]);
  });
});
