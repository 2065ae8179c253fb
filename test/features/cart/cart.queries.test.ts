import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Book } from '../../../src/models/Book.ts';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';

// The cart API is the busiest thing a shopper does with a session: each change is a few
// round trips to the database, never a walk through the cart. Session reads and writes (in the
// database on the embedded defaults) are the session's business, not counted here.

let shop: TestShop;
let cartQueries: string[] = [];
const counting = { on: false };
beforeAll(async () => {
  shop = await buildTestShop();
  shop.db.on('query', ({ sql }: { sql: string }) => {
    if (counting.on && !/\bsessions\b/.test(sql)) cartQueries.push(sql);
  });
});
afterAll(() => shop.close());

beforeEach(async () => {
  await Book.query(shop.db).findById(1).patch({ inStock: 20 });
});

async function visitorWithCart() {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 3 }).expect(201);
  return { agent, token };
}

async function queriesOf(request: () => Promise<unknown>): Promise<string[]> {
  cartQueries = [];
  counting.on = true;
  try {
    await request();
  } finally {
    counting.on = false;
  }
  return cartQueries;
}

describe('database round trips per cart change', () => {
  // Adding from a book page usually makes a new line (the drawer's plus sets a quantity), so
  // that is the case kept shortest.
  it('adds a new line in at most 2 queries', async () => {
    const { agent, token } = await visitorWithCart();
    const queries = await queriesOf(() => agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1 }).expect(201));
    expect(queries.length, queries.join('\n')).toBeLessThanOrEqual(2);
  });

  it('adds to a line already there in at most 3 queries', async () => {
    const { agent, token } = await visitorWithCart();
    const queries = await queriesOf(() => agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 3 }).expect(201));
    expect(queries.length, queries.join('\n')).toBeLessThanOrEqual(3);
  });

  it('removes a line in at most 2 queries', async () => {
    const { agent, token } = await visitorWithCart();
    const queries = await queriesOf(() => agent.delete('/api/cart/3').set('x-csrf-token', token).expect(200));
    expect(queries.length, queries.join('\n')).toBeLessThanOrEqual(2);
  });
});
