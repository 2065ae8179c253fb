import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Book } from '../../../src/models/Book.ts';
import { createCartService } from '../../../src/features/cart/cart.service.ts';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';

// Real parallel requests on one session: the quantity must be added atomically, never
// read and then written, or concurrent additions are lost (MariaDB showed it first).
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

async function visitor() {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  const add = (bookId: number, quantity = 1) => agent.post('/api/cart').set('x-csrf-token', token).send({ bookId, quantity });
  const cart = () =>
    agent
      .get('/api/cart')
      .expect(200)
      .then((r) => r.body as Array<{ bookId: number; quantity: number }>);
  return { agent, token, add, cart };
}

async function stock(bookId: number, inStock: number) {
  await Book.query(shop.db).findById(bookId).patch({ inStock });
}

const all = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

beforeEach(async () => {
  await stock(1, 100);
  await stock(2, 10);
});

describe('concurrent cart changes', () => {
  it('keeps every one of 20 concurrent additions of one book', async () => {
    const { add, cart } = await visitor();
    await add(1).expect(201);
    const answers = await all(20, () => add(1));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await cart()).toMatchObject([{ bookId: 1, quantity: 21 }]);
  });

  it('never lets concurrent additions pass the copies in stock', async () => {
    const { add, cart } = await visitor();
    await add(2).expect(201);
    const answers = await all(20, () => add(2));
    for (const res of answers) {
      expect([201, 409]).toContain(res.status);
      if (res.status === 409) expect(res.body.message).toMatch(/Only 10 copies of ".+" are available\./);
    }
    expect(answers.filter((r) => r.status === 201)).toHaveLength(9);
    expect(await cart()).toMatchObject([{ bookId: 2, quantity: 10 }]);
  });

  it('never lets concurrent additions pass the per-order maximum of 50 copies', async () => {
    await stock(1, 500);
    const { add, cart } = await visitor();
    await add(1, 40).expect(201);
    const answers = await all(10, () => add(1, 3));
    for (const res of answers) {
      expect([201, 409]).toContain(res.status);
      if (res.status === 409) expect(res.body.message).toBe('Up to 50 copies of each book per order.');
    }
    // 40 + 3 + 3 + 3 = 49; a fourth addition of 3 would pass 50.
    expect(answers.filter((r) => r.status === 201)).toHaveLength(3);
    expect(await cart()).toMatchObject([{ bookId: 1, quantity: 49 }]);
  });

  it('makes one cart for a session whose first additions arrive together', async () => {
    const { add, cart } = await visitor();
    const before = (await shop.db('carts').count({ n: '*' }).first()) as { n: number | string };
    const answers = await all(10, () => add(1));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
    const after = (await shop.db('carts').count({ n: '*' }).first()) as { n: number | string };
    expect(Number(after.n) - Number(before.n)).toBe(1);
    expect(await cart()).toMatchObject([{ bookId: 1, quantity: 10 }]);
  });

  it('makes one cart for an account whose first additions arrive together', async () => {
    const [id] = await shop.db('users').insert({ email: `race${Date.now()}@example.com`, password_hash: 'x', first_name: 'R' });
    const userId = Number(id);
    const carts = createCartService(shop.db, shop.services.shopDay);
    const answers = await Promise.allSettled(Array.from({ length: 10 }, () => carts.addItem({ userId }, 1, 1)));
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
    expect(await shop.db('carts').where({ user_id: userId })).toHaveLength(1);
    expect((await carts.getItems({ userId })).map((l) => l.quantity)).toEqual([10]);
  });

  it('joins a visitor cart to an account when two sign-ins merge it together beside an addition', async () => {
    const { add } = await visitor();
    await add(1, 2).expect(201);
    const visitorCart = await shop.db('carts').whereNull('user_id').orderBy('id', 'desc').first();
    const [id] = await shop.db('users').insert({ email: `merge${Date.now()}@example.com`, password_hash: 'x', first_name: 'M' });
    const userId = Number(id);
    const carts = createCartService(shop.db, shop.services.shopDay);
    await Promise.all([
      carts.mergeIntoAccount(visitorCart.id, userId),
      carts.mergeIntoAccount(visitorCart.id, userId),
      carts.addItem({ userId }, 2, 1),
    ]);
    const lines = (await carts.getItems({ userId })).map((l) => [l.bookId, l.quantity]);
    expect(lines.sort()).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it('keeps the stock cap when setting quantities concurrently', async () => {
    const { add, cart, agent, token } = await visitor();
    await add(2).expect(201);
    const answers = await all(10, () => agent.put('/api/cart/2').set('x-csrf-token', token).send({ quantity: 11 }));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(409));
    expect(await cart()).toMatchObject([{ bookId: 2, quantity: 1 }]);
  });
});
