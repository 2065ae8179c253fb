import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSETTLED_STATUSES } from '../../../src/models/Checkout.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';

// An account erased at the moment its parent starts paying: the erasure takes the account's
// row lock first, as a payment start does, so one of them goes first. Either the payment
// starts and the erasure is refused, or the account is gone and the payment is refused:
// never a payment left open for an account that no longer exists. Real on MariaDB
// (DATABASE_URL); SQLite runs one writer at a time.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(async () => {
  await shop?.close();
});

describe('erasing an account while its parent starts paying', () => {
  it('lets one of them go first, each time', async () => {
    const outcomes = [];
    for (let round = 0; round < 4; round++)
      outcomes.push(
        await (async () => {
          const buyer = new Buyer(shop);
          expect((await buyer.signUp(buyer.parent)).status).toBe(201);
          await buyer.add(1, 1);
          const id = Number((await shop.db('users').where({ email: buyer.parent.email }).first('id')).id);
          const [payment, erasure] = await Promise.all([
            buyer.startPayment(),
            shop.services.privacy.eraseOwn(id, buyer.parent.password).then(
              () => 'erased',
              (err: { status?: number; message?: string }) => err.status ?? err.message,
            ),
          ]);
          return { payment: payment.status, erasure, id };
        })(),
      );
    for (const { payment, erasure, id } of outcomes) {
      if (erasure === 'erased') {
        // Refused as signed out (401) or as an account that no longer exists (404), never a server error.
        expect([401, 404]).toContain(payment);
        expect(await shop.db('checkouts').where({ userId: id })).toEqual([]);
      } else {
        expect([payment, erasure]).toEqual([200, 409]);
        expect(await shop.db('users').where({ id }).first()).toBeDefined();
      }
    }
    // Whatever the order, no payment is left waiting without its account.
    expect(await shop.db('checkouts').whereNull('userId').whereIn('status', UNSETTLED_STATUSES)).toEqual([]);
    const orphans = await shop
      .db('checkouts')
      .leftJoin('users', 'users.id', 'checkouts.userId')
      .whereNull('users.id')
      .whereNotNull('checkouts.userId');
    expect(orphans).toEqual([]);
  });
});
