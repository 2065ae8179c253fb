import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { longDate } from '../../../src/lib/dates.ts';
import { MAX_COPIES_PER_TITLE, PER_TITLE_LIMIT_TEXT } from '../../../src/features/catalog/per-title-limit.ts';
import { shipsTogetherSentence } from '../../../src/features/catalog/preorder.rules.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { Book } from '../../../src/models/Book.ts';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';
import { daysFromNow, makeForthcoming, OUT_ON } from '../../helpers/preorder-titles.ts';

// A forthcoming title's line is a pre-order: it draws on the copies left under the title's
// pre-order limit (not on its stock), its refusals name pre-orders, and the cart tells, line by
// line and before checkout, when the order will ship. An ordinary line never takes the copies
// still owed to pre-orders. On SQLite, and on MariaDB when DATABASE_URL is set.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

/** A forthcoming title with 3 pre-order copies left of 10. */
const LIMITED = 3;
/** A forthcoming title without a limit, published later than LIMITED. */
const UNLIMITED = 4;
/** A title on the shelf: 5 copies, 3 of them owed to pre-orders not yet served. */
const OWED = 5;
const LATER = daysFromNow(200);

beforeEach(async () => {
  await makeForthcoming(shop, LIMITED, { limit: 10, preordered: 7 });
  await makeForthcoming(shop, UNLIMITED, { limit: null, publishedOn: LATER });
  await shop.db('books').where({ id: OWED }).update({ inStock: 5, preordered: 3, takesPreorders: false, publishedOn: '2025-01-01' });
  await bumpCatalogueVersion(shop.db);
});

const titleOf = async (id: number) => (await Book.query(shop.db).findById(id))!.title;

async function visitor() {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  const send = (method: 'post' | 'put', path: string, body: object) => agent[method](path).set('x-csrf-token', token).send(body);
  return { agent, token, send, cart: async () => (await agent.get('/api/cart').expect(200)).body as Array<Record<string, unknown>> };
}

describe('a pre-order line in the cart API', () => {
  it('says it is a pre-order and when the book is out; an ordinary line says neither', async () => {
    const { send, cart } = await visitor();
    await send('post', '/api/cart', { bookId: LIMITED, quantity: 2 }).expect(201);
    await send('post', '/api/cart', { bookId: OWED, quantity: 1 }).expect(201);
    const lines = await cart();
    expect(lines.find((l) => l.bookId === LIMITED)).toMatchObject({ quantity: 2, preorder: true, outOn: OUT_ON });
    expect(lines.find((l) => l.bookId === OWED)).toMatchObject({ quantity: 1, preorder: false, outOn: null });
  });

  it('holds at most the pre-order copies left, refused in words about pre-orders, adding nothing', async () => {
    const { send, cart } = await visitor();
    const title = await titleOf(LIMITED);
    // The first addition makes the cart; the later ones go through the cart the session knows.
    await send('post', '/api/cart', { bookId: LIMITED, quantity: 2 }).expect(201);
    const more = await send('post', '/api/cart', { bookId: LIMITED, quantity: 2 }).expect(409);
    expect(more.body.message).toBe(`Only 3 pre-order copies of "${title}" are left.`);
    await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(201);
    const set = await send('put', `/api/cart/${LIMITED}`, { quantity: 4 }).expect(409);
    expect(set.body.message).toBe(`Only 3 pre-order copies of "${title}" are left.`);
    expect((await cart()).find((l) => l.bookId === LIMITED)).toMatchObject({ quantity: 3 });
  });

  it('a first addition past the copies left is refused the same way', async () => {
    const { send, cart } = await visitor();
    const res = await send('post', '/api/cart', { bookId: LIMITED, quantity: 4 }).expect(409);
    expect(res.body.message).toBe(`Only 3 pre-order copies of "${await titleOf(LIMITED)}" are left.`);
    expect(await cart()).toEqual([]);
  });

  it('does not count the shelf: copies in stock of a forthcoming title are not for pre-orders', async () => {
    await makeForthcoming(shop, LIMITED, { limit: 10, preordered: 9, inStock: 40 });
    const { send } = await visitor();
    await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(201);
    const res = await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(409);
    expect(res.body.message).toBe(`Only 1 pre-order copy of "${await titleOf(LIMITED)}" is left.`);
  });

  it('with every pre-order copy taken, is refused like a sold-out book, about pre-orders', async () => {
    await makeForthcoming(shop, LIMITED, { limit: 10, preordered: 10 });
    const { send, cart } = await visitor();
    const res = await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(409);
    expect(res.body.message).toBe(`Sorry, every pre-order copy of "${await titleOf(LIMITED)}" has been taken.`);
    expect(await cart()).toEqual([]);
  });

  it('without a limit, holds up to the per-title cap', async () => {
    const { send } = await visitor();
    await send('post', '/api/cart', { bookId: UNLIMITED, quantity: MAX_COPIES_PER_TITLE }).expect(201);
    const res = await send('post', '/api/cart', { bookId: UNLIMITED, quantity: 1 }).expect(409);
    expect(res.body.message).toBe(PER_TITLE_LIMIT_TEXT);
  });

  it('a title that takes no pre-orders stays sold out at stock 0', async () => {
    await makeForthcoming(shop, LIMITED, { takesPreorders: false });
    const { send } = await visitor();
    const res = await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(409);
    expect(res.body.message).toBe(`Sorry, "${await titleOf(LIMITED)}" is sold out right now.`);
  });
});

describe('an ordinary line of a title with pre-orders still to serve', () => {
  it('holds only the copies not owed to them', async () => {
    const { send, cart } = await visitor();
    const title = await titleOf(OWED);
    await send('post', '/api/cart', { bookId: OWED, quantity: 2 }).expect(201);
    const more = await send('post', '/api/cart', { bookId: OWED, quantity: 1 }).expect(409);
    expect(more.body.message).toBe(`Only 2 copies of "${title}" are available.`);
    const set = await send('put', `/api/cart/${OWED}`, { quantity: 3 }).expect(409);
    expect(set.body.message).toBe(`Only 2 copies of "${title}" are available.`);
    expect((await cart())[0]).toMatchObject({ quantity: 2 });
  });

  it('is sold out when every copy on the shelf is owed', async () => {
    await shop.db('books').where({ id: OWED }).update({ preordered: 5 });
    await bumpCatalogueVersion(shop.db);
    const { send } = await visitor();
    const res = await send('post', '/api/cart', { bookId: OWED, quantity: 1 }).expect(409);
    expect(res.body.message).toBe(`Sorry, "${await titleOf(OWED)}" is sold out right now.`);
  });
});

describe('the cart page', () => {
  const said = (text: string) => text.replace(/"/g, '&quot;');

  it('marks each pre-order line with its date and says, before checkout, when everything ships', async () => {
    const { send, agent } = await visitor();
    await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(201);
    await send('post', '/api/cart', { bookId: UNLIMITED, quantity: 1 }).expect(201);
    await send('post', '/api/cart', { bookId: OWED, quantity: 1 }).expect(201);
    const page = (await agent.get('/cart').expect(200)).text;
    expect(page).toContain(`Pre-order · out ${longDate(OUT_ON)}`);
    expect(page).toContain(`Pre-order · out ${longDate(LATER)}`);
    expect(page.match(/class="cart-line-preorder"/g)).toHaveLength(2);
    // The latest of the two dates, before the way to checkout.
    const sentence = shipsTogetherSentence(LATER);
    expect(page).toContain(said(sentence));
    expect(page.indexOf(said(sentence))).toBeLessThan(page.indexOf('Proceed to Checkout'));
    // The quantity field stops where the line must.
    expect(page).toMatch(new RegExp(`id="qty-${LIMITED}" type="number" name="quantity" min="0" max="3"`));
    expect(page).toMatch(new RegExp(`id="qty-${OWED}" type="number" name="quantity" min="0" max="2"`));
  });

  it('says nothing of pre-orders for a cart without one', async () => {
    const { send, agent } = await visitor();
    await send('post', '/api/cart', { bookId: OWED, quantity: 1 }).expect(201);
    const page = (await agent.get('/cart').expect(200)).text;
    expect(page).not.toContain('Pre-order');
    expect(page).not.toContain('ships-together');
  });

  it('tells a refused pre-order quantity beside its line', async () => {
    const { send, agent, token } = await visitor();
    await send('post', '/api/cart', { bookId: LIMITED, quantity: 1 }).expect(201);
    await agent.post(`/cart/items/${LIMITED}`).type('form').send({ _csrf: token, quantity: '9' }).expect(303);
    const page = (await agent.get('/cart').expect(200)).text;
    expect(page).toContain(said(`Only 3 pre-order copies of "${await titleOf(LIMITED)}" are left.`));
    expect(page).toContain('value="9"');
  });
});

describe('joining a visitor’s cart at sign-in', () => {
  it('caps a pre-order line at the copies left', async () => {
    const [userId] = await shop.db('users').insert({ email: `merge.${Date.now()}@example.com`, password_hash: 'x', first_name: 'M' });
    const [intoId] = await shop.db('carts').insert({ userId });
    await shop.db('cartItems').insert({ cartId: intoId, bookId: LIMITED, quantity: 2 });
    const [fromId] = await shop.db('carts').insert({ userId: null });
    await shop.db('cartItems').insert({ cartId: fromId, bookId: LIMITED, quantity: 4 });
    await shop.services.carts.mergeIntoAccount(Number(fromId), Number(userId));
    expect(await shop.db('cartItems').where({ cartId: intoId, bookId: LIMITED }).first('quantity')).toMatchObject({ quantity: 3 });
  });
});
