import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent } from '../helpers/accounts.ts';
import { buildTestShop, type TestShop } from '../helpers/app.ts';

let shop: TestShop;
let visitor: ApiBrowser;
let parent: ApiBrowser;
beforeAll(async () => {
  shop = await buildTestShop();
  visitor = new ApiBrowser(shop.browser());
  parent = new ApiBrowser(shop.browser());
  await parent.signUp(newParent());
  await parent.send('post', '/api/cart', { bookId: 1 });
});
afterAll(() => shop.close());

// Every JSON route that takes a body, fed shapes no client should send.
const ROUTES: Array<['post' | 'put' | 'delete', string]> = [
  ['post', '/api/cart'],
  ['put', '/api/cart/1'],
  ['delete', '/api/cart/abc'],
  ['post', '/api/contact'],
  ['post', '/api/auth/login'],
  ['post', '/api/auth/signup'],
  ['post', '/api/auth/reset-password'],
  ['put', '/api/auth/profile'],
  ['put', '/api/auth/password'],
  ['post', '/api/check-email'],
  ['post', '/api/calculate-totals'],
  ['post', '/api/validate-address'],
  ['post', '/api/create-user-and-customer'],
  ['post', '/api/create-payment-intent-with-customer'],
  ['post', '/api/create-payment-intent-authenticated'],
  ['post', '/api/complete-order'],
  ['post', '/api/sandbox/confirm'],
  ['post', '/api/sandbox/authenticate'],
];

const JUNK: unknown[] = [
  [],
  ['a', 1],
  { bookId: { $gt: 0 }, quantity: [1] },
  { email: ['a@b.c'], password: { x: 1 }, firstName: 42 },
  { shippingInfo: 'nope', totalAmount: -5, amount: 'lots', stripePaymentIntentId: 7 },
  { quantity: 1e308, bookId: -0 },
  { address: 'x'.repeat(300), city: null, zipCode: 97205 },
];

describe('bad input', () => {
  it.each(ROUTES)('%s %s answers junk with a 4xx and a readable message, never a 500', async (method, path) => {
    for (const who of [visitor, parent]) {
      for (const body of JUNK) {
        const res = await who.send(method, path, body as object);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(
          400,
        );
        expect(res.status).toBeLessThan(500);
        expect(typeof res.body.message).toBe('string');
        expect(res.body.message).not.toMatch(/at .+\.ts:\d+/); // no stack traces
      }
    }
  });

  it('changes nothing', async () => {
    expect((await parent.get('/api/cart')).body).toMatchObject([{ bookId: 1, quantity: 1 }]);
    expect(await shop.db('orders')).toHaveLength(0);
    expect(await shop.db('contactMessages')).toHaveLength(0);
  });
});
