import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { setStock } from '../../helpers/checkout.ts';
import { placePaidOrder } from '../../helpers/orders.ts';
import { summaryOf, toastsOf } from '../../helpers/refusals.ts';
import { MAX_COPIES_PER_TITLE } from '../../../src/features/catalog/per-title-limit.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
  // Enough copies of every book for the orders below; each test then sets what it needs.
  await shop.db('books').update({ inStock: 200 });
});
afterAll(() => shop.close());

/** Presses an order's 'Buy again' in the dashboard, as a browser without JavaScript does. */
async function buyAgain(agent: supertest.Agent, orderId: number): Promise<supertest.Response> {
  const dashboard = await agent.get('/dashboard?tab=orders').expect(200);
  expect(dashboard.text).toContain(`action="/dashboard/orders/${orderId}/buy-again"`);
  return agent
    .post(`/dashboard/orders/${orderId}/buy-again`)
    .type('form')
    .send({ _csrf: formToken(dashboard.text) });
}

async function cartLines(agent: supertest.Agent): Promise<Record<number, number>> {
  const res = await agent.get('/api/cart').expect(200);
  const items = res.body as Array<{ bookId: number; quantity: number }>;
  return Object.fromEntries(items.map((i) => [i.bookId, i.quantity]));
}

async function titleOf(bookId: number): Promise<string> {
  return String((await shop.db('books').where({ id: bookId }).first()).title);
}

describe("the dashboard's 'Buy again'", () => {
  it('puts the same books and quantities in the cart, adding to what is there, and shows the cart', async () => {
    const { buyer, orderId } = await placePaidOrder(shop, { bookId: 1, quantity: 2 });
    await buyer.add(1, 1);
    const res = await buyAgain(buyer.agent, orderId);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/cart');
    expect(await cartLines(buyer.agent)).toEqual({ 1: 3 });
    const cart = await buyer.agent.get('/cart').expect(200);
    expect(cart.text).toContain(`The books from order #${orderId} are in your cart.`);
  });

  it('adds only the copies in stock and says how many were available', async () => {
    const { buyer, orderId } = await placePaidOrder(shop, { bookId: 2, quantity: 4 });
    await setStock(shop, 2, 3);
    await buyAgain(buyer.agent, orderId);
    expect(await cartLines(buyer.agent)).toEqual({ 2: 3 });
    const cart = await buyer.agent.get('/cart').expect(200);
    // Told at the top of the cart in the refusal summary, not in a toast that fades.
    expect(summaryOf(cart.text, 'cart-buy-again')).toEqual({
      title: 'Some books could not be added',
      items: [`Only 3 copies of "${await titleOf(2)}" were available.`],
      links: [null],
    });
    expect(toastsOf(cart.text).filter((toast) => toast.variant === 'error')).toEqual([]);
    // Once: the next visit to the cart is quiet.
    expect(summaryOf((await buyer.agent.get('/cart').expect(200)).text, 'cart-buy-again')).toBeNull();
  });

  it('stops at the per-line maximum', async () => {
    const { buyer, orderId } = await placePaidOrder(shop, { bookId: 3, quantity: 30 });
    await buyer.add(3, 30);
    await buyAgain(buyer.agent, orderId);
    expect(await cartLines(buyer.agent)).toEqual({ 3: MAX_COPIES_PER_TITLE });
    const cart = await buyer.agent.get('/cart').expect(200);
    expect(cart.text).toContain(`Only ${MAX_COPIES_PER_TITLE} copies of &quot;${await titleOf(3)}&quot; fit in one order.`);
  });

  it('skips a book taken off sale or sold out, and says it is no longer available', async () => {
    const { buyer, orderId } = await placePaidOrder(shop, { bookId: 4, quantity: 1 });
    await shop.db('books').where({ id: 4 }).update({ hidden: true });
    try {
      await buyAgain(buyer.agent, orderId);
      expect(await cartLines(buyer.agent)).toEqual({});
      const cart = await buyer.agent.get('/cart').expect(200);
      expect(cart.text).toContain(`&quot;${await titleOf(4)}&quot; is no longer available.`);
    } finally {
      await shop.db('books').where({ id: 4 }).update({ hidden: false });
    }
    const again = await placePaidOrder(shop, { bookId: 5, quantity: 1 });
    await setStock(shop, 5, 0);
    await buyAgain(again.buyer.agent, again.orderId);
    expect(await cartLines(again.buyer.agent)).toEqual({});
    expect((await again.buyer.agent.get('/cart')).text).toContain(`&quot;${await titleOf(5)}&quot; is no longer available.`);
  });

  it("answers 404 for another parent's order and changes nothing", async () => {
    const { orderId } = await placePaidOrder(shop, { bookId: 6, quantity: 1 });
    const other = await placePaidOrder(shop, { bookId: 6, quantity: 1 });
    const page = await other.buyer.agent.get('/dashboard?tab=orders').expect(200);
    expect(page.text).toContain(`action="/dashboard/orders/${other.orderId}/buy-again"`);
    expect(page.text).not.toContain(`action="/dashboard/orders/${orderId}/buy-again"`);
    const res = await other.buyer.agent
      .post(`/dashboard/orders/${orderId}/buy-again`)
      .type('form')
      .send({ _csrf: formToken(page.text) });
    expect(res.status).toBe(404);
    expect(await cartLines(other.buyer.agent)).toEqual({});
  });

  it('sends a visitor who is not signed in to sign in', async () => {
    const res = await shop.browser().post('/dashboard/orders/1/buy-again').set('Sec-Fetch-Site', 'same-origin').type('form').send({});
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/login/);
  });
});
