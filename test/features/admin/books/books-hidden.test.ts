import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { insertOrder, textOf } from '../../../helpers/admin-fixtures.ts';
import { addBook, postAdminForm } from '../../../helpers/book-admin.ts';
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

const hide = (id: number) => postAdminForm(agent, `/admin/books/${id}/edit`, `/admin/books/${id}/hide`, {});
const unhide = (id: number) => postAdminForm(agent, `/admin/books/${id}/edit`, `/admin/books/${id}/unhide`, {});

describe('a hidden book', () => {
  it('answers 404 to shoppers on every surface, and comes back when put on sale again', async () => {
    const id = await addBook(agent, { isbn: '', title: 'The Hidden Harbour' });
    const visitor = shop.browser();
    // Seen (and cached) before it is hidden.
    expect((await visitor.get('/books').expect(200)).text).toContain('The Hidden Harbour');
    await visitor.get(`/books/${id}`).expect(200);

    expect((await hide(id)).status).toBe(303);
    expect((await shop.db('auditLog').where({ bookId: id, action: 'book.hidden' })).length).toBe(1);

    const page = await visitor.get(`/books/${id}`).expect(404);
    expect(textOf(page.text)).toContain('Book Not Found');
    expect((await visitor.get('/books').expect(200)).text).not.toContain('The Hidden Harbour');
    await visitor.get(`/api/books/${id}`).expect(404);
    const all = (await visitor.get('/api/books').expect(200)).body as Array<{ id: number }>;
    expect(all.map((b) => b.id)).not.toContain(id);
    const recommended = (await visitor.get('/api/books?exclude=1&limit=100&random=true').expect(200)).body as Array<{ id: number }>;
    expect(recommended.map((b) => b.id)).not.toContain(id);
    expect((await visitor.get('/sitemap.xml').expect(200)).text).not.toContain(`/books/${id}<`);
    for (const other of [1, 2, 3]) expect((await visitor.get(`/books/${other}`).expect(200)).text).not.toContain('The Hidden Harbour');

    const buyer = new Buyer(shop);
    const add = await buyer.send('post', '/api/cart', { bookId: id, quantity: 1 });
    expect(add.status).toBe(404);

    expect((await unhide(id)).status).toBe(303);
    expect((await shop.db('auditLog').where({ bookId: id, action: 'book.unhidden' })).length).toBe(1);
    await visitor.get(`/books/${id}`).expect(200);
    expect((await buyer.send('post', '/api/cart', { bookId: id, quantity: 1 })).status).toBe(201);
  });

  it('cannot be checked out from a cart that held it before it was hidden, and no copy is held', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Gone Before Checkout', stock: '4' });
    const buyer = new Buyer(shop);
    await buyer.add(id, 2);
    const { stripeCustomerId } = await buyer.createAccount();
    await hide(id);
    // The cart still lists it, so the parent can see it and take it out; more copies are refused.
    expect((await buyer.send('put', `/api/cart/${id}`, { quantity: 3 })).status).toBe(404);
    const res = await buyer.startPayment({ stripeCustomerId });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('"Gone Before Checkout" is no longer available. Please remove it from your cart.');
    expect(await stockOf(shop, id)).toBe(4);
    expect(await shop.db('stockHolds').where({ bookId: id })).toEqual([]);
    const emptied = await buyer.send('put', `/api/cart/${id}`, { quantity: 0 });
    expect(emptied.status).toBe(200);
    expect(emptied.body).toEqual([]);
  });

  it("stays on its orders: the customer's order history and the admin order page", async () => {
    const buyer = new Buyer(shop);
    const id = await addBook(agent, { isbn: '', title: 'Ordered Then Hidden' });
    await buyer.add(id, 1);
    const { stripeCustomerId } = await buyer.createAccount();
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);
    await buyer.confirm('4242 4242 4242 4242');
    const done = await buyer.complete();
    expect(done.status).toBe(200);
    await hide(id);

    const orders = (await buyer.get('/api/orders').expect(200)).body as Array<{ id: number; items: Array<{ book: { title: string } }> }>;
    expect(orders[0]!.items.map((item) => item.book.title)).toContain('Ordered Then Hidden');
    expect(textOf((await agent.get(`/admin/orders/${orders[0]!.id}`).expect(200)).text)).toContain('Ordered Then Hidden');
    expect((await buyer.get('/dashboard').expect(200)).text).toContain('Ordered Then Hidden');
    // Books on an order are never deleted: the back office has no way to, and the rows remain.
    expect(await shop.db('books').where({ id }).first()).toBeTruthy();
  });

  it('keeps an order placed earlier in the admin orders list', async () => {
    const id = await addBook(agent, { isbn: '', title: 'Listed On An Old Order' });
    const user = (await shop.db('users').where({ role: 'operator' }).first()) as { id: number };
    const orderId = await insertOrder(shop.db, { userId: user.id, lines: [{ title: 'Listed On An Old Order', quantity: 1, bookId: id }] });
    await hide(id);
    expect((await agent.get('/admin/orders').expect(200)).text).toContain(`/admin/orders/${orderId}`);
  });
});
