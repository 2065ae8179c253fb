import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, formToken, type TestShop } from '../../helpers/app.ts';

// A visitor reading book pages has no session; their first addition to the cart makes one.
const prefix = `test:first-add:${randomBytes(6).toString('hex')}:`;
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ sessionPrefix: prefix });
});
afterAll(() => shop.close());

async function cartLines() {
  const row = (await shop.db('cart_items').count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}

async function storedSessions() {
  if (shop.sessions.redis)
    return (await shop.sessions.redis.keys(`${prefix}*`)).filter((key) => !key.startsWith(`${prefix}throttle:`)).length;
  const row = (await shop.db('sessions').count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}

const addOne = { bookId: '1', quantity: '1' };

describe('a book page without a session', () => {
  it('sets no cookie and carries no session token', async () => {
    const before = await storedSessions();
    const res = await shop.browser().get('/books/1').expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('name="_csrf" value=""');
    expect(res.text).toContain('action="/cart"');
    expect(await storedSessions()).toBe(before);
  });

  it('keeps the token in the form once the visitor has a session', async () => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    const res = await agent.get('/books/1').expect(200);
    expect(formToken(res.text)).toBe(token);
  });
});

describe('the first addition from a book page (no JavaScript)', () => {
  it.each([
    ['Origin', { origin: 'http://shop.test' }],
    ['Referer', { referer: 'http://shop.test/books/1' }],
    ['Sec-Fetch-Site', { 'sec-fetch-site': 'same-origin' }],
  ])('is accepted when the %s says it came from the shop, and makes the session holding the cart', async (_name, headers) => {
    const agent = shop.browser();
    const res = await agent.post('/cart').set('host', 'shop.test').set(headers).type('form').send(addOne).expect(303);
    expect(res.headers.location).toBe('/books/1');
    expect(String(res.headers['set-cookie'])).toContain('shop.sid=');
    const cart = await agent.get('/api/cart').expect(200);
    expect(cart.body).toEqual([expect.objectContaining({ quantity: 1, book: expect.objectContaining({ id: 1 }) })]);
  });

  it('gives the new session its token, which the next form carries', async () => {
    const agent = shop.browser();
    await agent.post('/cart').set('sec-fetch-site', 'same-origin').type('form').send(addOne).expect(303);
    const page = await agent.get('/books/1').expect(200);
    const session = await agent.get('/api/session').expect(200);
    expect(formToken(page.text)).toBe(session.body.csrfToken);
    await agent
      .post('/cart')
      .type('form')
      .send({ ...addOne, _csrf: formToken(page.text) })
      .expect(303);
    expect((await agent.get('/api/cart').expect(200)).body[0].quantity).toBe(2);
  });

  it.each([
    ['a cross-site Origin', { origin: 'https://evil.example' }],
    ['a cross-site Referer', { referer: 'https://evil.example/win-a-prize' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['an Origin of "null" alone', { origin: 'null' }],
    ['nothing saying where it came from', {}],
  ])('is refused with 403 and changes nothing when it carries %s', async (_name, headers) => {
    const [lines, sessions] = [await cartLines(), await storedSessions()];
    const res = await shop
      .browser()
      .post('/cart')
      .unset('sec-fetch-site')
      .set('host', 'shop.test')
      .set(headers)
      .type('form')
      .send(addOne)
      .expect(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await cartLines()).toBe(lines);
    expect(await storedSessions()).toBe(sessions);
  });
});

describe('with a session', () => {
  it.each([
    ['a missing token', {}],
    ['a wrong token', { _csrf: 'forged' }],
  ])('a same-origin addition with %s is still refused with 403', async (_name, token) => {
    const agent = shop.browser();
    await csrfTokenFor(agent);
    const lines = await cartLines();
    await agent
      .post('/cart')
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send({ ...addOne, ...token })
      .expect(403);
    expect(await cartLines()).toBe(lines);
  });

  it('a session made by a first addition then needs its token', async () => {
    const agent = shop.browser();
    await agent.post('/cart').set('sec-fetch-site', 'same-origin').type('form').send(addOne).expect(303);
    await agent.post('/cart').set('sec-fetch-site', 'same-origin').type('form').send(addOne).expect(403);
    expect((await agent.get('/api/cart').expect(200)).body[0].quantity).toBe(1);
  });
});

describe('the cart API (the drawer island) follows the same rules', () => {
  it('accepts a same-origin first addition without a session, and makes one', async () => {
    const agent = shop.browser();
    const res = await agent.post('/api/cart').set('sec-fetch-site', 'same-origin').send({ bookId: 1 }).expect(201);
    expect(String(res.headers['set-cookie'])).toContain('shop.sid=');
    expect((await agent.get('/api/cart').expect(200)).body).toHaveLength(1);
  });

  it('refuses a cross-site one without a session and changes nothing', async () => {
    const lines = await cartLines();
    await shop.browser().post('/api/cart').unset('sec-fetch-site').set('origin', 'https://evil.example').send({ bookId: 1 }).expect(403);
    await shop.browser().post('/api/cart').set('sec-fetch-site', 'cross-site').send({ bookId: 1 }).expect(403);
    expect(await cartLines()).toBe(lines);
  });

  it('with a session, refuses a missing or wrong token', async () => {
    const agent = shop.browser();
    await csrfTokenFor(agent);
    await agent.post('/api/cart').set('sec-fetch-site', 'same-origin').send({ bookId: 1 }).expect(403);
    await agent.post('/api/cart').set('sec-fetch-site', 'same-origin').set('x-csrf-token', 'forged').send({ bookId: 1 }).expect(403);
  });
});
