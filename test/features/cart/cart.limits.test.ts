import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Book } from '../../../src/models/Book.ts';
import { createCartService } from '../../../src/features/cart/cart.service.ts';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';

// At most 50 copies of one title per order, even when there are more in stock.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
  await Book.query(shop.db).findById(1).patch({ inStock: 500 });
});
afterAll(() => shop.close());

async function visitor() {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  return {
    agent,
    token,
    cart: () =>
      agent
        .get('/api/cart')
        .expect(200)
        .then((r) => r.body as Array<{ quantity: number }>),
  };
}

describe('the per-title limit', () => {
  it('refuses an addition past 50 copies with a clear message, changing nothing', async () => {
    const { agent, token, cart } = await visitor();
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1, quantity: 50 }).expect(201);
    const res = await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1, quantity: 1 }).expect(409);
    expect(res.body.message).toBe('Up to 50 copies of each book per order.');
    expect(await cart()).toMatchObject([{ quantity: 50 }]);
  });

  it('refuses setting a line past 50 copies', async () => {
    const { agent, token, cart } = await visitor();
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1 }).expect(201);
    const res = await agent.put('/api/cart/1').set('x-csrf-token', token).send({ quantity: 51 }).expect(409);
    expect(res.body.message).toBe('Up to 50 copies of each book per order.');
    expect(await cart()).toMatchObject([{ quantity: 1 }]);
  });

  it('caps a merged line at 50 copies at sign-in', async () => {
    const { agent, token } = await visitor();
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1, quantity: 40 }).expect(201);
    const visitorCart = await shop.db('carts').whereNull('user_id').orderBy('id', 'desc').first();
    // Merging keeps the larger line, so only a line already past the cap (written before it) can pass it.
    await shop.db('cart_items').where({ cart_id: visitorCart.id, book_id: 1 }).update({ quantity: 70 });
    const [id] = await shop.db('users').insert({ email: `cap${Date.now()}@example.com`, password_hash: 'x', first_name: 'C' });
    const carts = createCartService(shop.db, shop.services.shopDay);
    await carts.addItem({ userId: Number(id) }, 1, 30);
    await carts.mergeIntoAccount(visitorCart.id, Number(id));
    expect((await carts.getItems({ userId: Number(id) })).map((l) => l.quantity)).toEqual([50]);
  });

  it('states the limit beside the quantity controls of the cart page, whose inputs stop at it', async () => {
    const { agent, token } = await visitor();
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1 }).expect(201);
    const page = await agent.get('/cart').expect(200);
    expect(page.text).toContain('Up to 50 copies of each book per order.');
    expect(page.text).toMatch(/id="qty-1"[^>]*max="50"/);
  });

  it('tells a parent without JavaScript why 51 copies were refused, beside the line, with the 51 kept to correct', async () => {
    const { agent, token, cart } = await visitor();
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1 }).expect(201);
    await agent.post('/cart/items/1').type('form').send({ _csrf: token, quantity: '51' }).expect(303);
    const page = await agent.get('/cart').expect(200);
    expect(page.text).toMatch(/<small id="qty-1-error" class="field-error">Up to 50 copies of each book per order\.<\/small>/);
    expect(page.text).toMatch(/id="qty-1"[^>]*value="51"[^>]*aria-invalid="true" aria-describedby="qty-1-error"/);
    expect(page.text).not.toContain('toast-error');
    expect(await cart()).toMatchObject([{ quantity: 1 }]);
  });
});
