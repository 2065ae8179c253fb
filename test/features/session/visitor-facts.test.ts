import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteReader } from '../../../src/db.ts';
import { createCartService } from '../../../src/features/cart/cart.service.ts';
import { visitorFactsReader } from '../../../src/features/session/visitor-facts.ts';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

// The header's facts come from one statement of their own, read through the pool or, on the
// embedded file, its read-only connection: both must count a cart as the cart service does.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('the facts a session page header shows', () => {
  it('are the account and the cart count the cart service gives, whichever connection reads them', async () => {
    const carts = createCartService(shop.db);
    const parent = newParent({ firstName: 'Dorothea' });
    const signedIn = new ApiBrowser(shop.browser());
    await signedIn.signUp(parent);
    await signedIn.send('post', '/api/cart', { bookId: 1, quantity: 2 }).then((res) => expect(res.status).toBe(201));
    await signedIn.send('post', '/api/cart', { bookId: 3, quantity: 1 }).then((res) => expect(res.status).toBe(201));
    const guest = new ApiBrowser(shop.browser());
    await guest.send('post', '/api/cart', { bookId: 1, quantity: 4 }).then((res) => expect(res.status).toBe(201));
    const userId = (await shop.db('users').where({ email: parent.email }).first()).id as number;
    const accountCartId = (await shop.db('carts').where({ user_id: userId }).first()).id as number;
    const guestCartId = (await shop.db('carts').whereNull('user_id').orderBy('id', 'desc').first()).id as number;

    const reader = openSqliteReader(shop.db);
    try {
      const readers = [visitorFactsReader(shop.db), ...(reader ? [visitorFactsReader(shop.db, reader)] : [])];
      for (const read of readers) {
        const mine = await read({ userId });
        expect(mine?.user).toMatchObject({ id: userId, firstName: 'Dorothea', mustChangePassword: false, sessionVersion: 0 });
        expect(mine?.cartCount).toBe(await carts.countItems({ userId }));
        expect(mine?.cartCount).toBe(3);
        // A guest's cart id never reaches an account's cart, nor the other way round.
        expect(await read({ cartId: guestCartId })).toEqual({ cartCount: 4 });
        expect(await read({ userId, cartId: guestCartId }).then((facts) => facts?.cartCount)).toBe(3);
        expect(await read({ cartId: accountCartId })).toEqual({ cartCount: await carts.countItems({ cartId: accountCartId }) });
        expect(await read({ cartId: accountCartId })).toEqual({ cartCount: 0 });
        expect(await read({})).toEqual({ cartCount: 0 });
        // An account that is gone leaves the page to the app.
        expect(await read({ userId: 987_654 })).toBeUndefined();
      }
    } finally {
      reader?.close();
    }
  });
});
