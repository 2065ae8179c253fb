import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS, setStock, stockOf } from '../../helpers/checkout.ts';

// Every door that completes a payment (a double tap on Pay, the browser's complete-order,
// the sandbox's confirm) may arrive at the same moment, when the order takes the last copy.
// Exactly one order must come of it and no refund. SQLite serialises writes and hides this
// race; the MariaDB run is the one that proves it.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const BOOK = 3;
const ROUNDS = 6;

async function buyerOfTheLastCopy(): Promise<Buyer> {
  await setStock(shop, BOOK, 1);
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  await buyer.add(BOOK);
  const started = await buyer.startPayment({});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return buyer;
}

function confirmRequest(buyer: Buyer) {
  return buyer.send('post', '/api/sandbox/confirm', {
    paymentIntentId: buyer.intent!.paymentIntentId,
    clientSecret: buyer.intent!.clientSecret,
    cardNumber: CARDS.success,
    expiry: '12/34',
    cvc: '123',
  });
}

async function expectOneOrderNoRefund(buyer: Buyer) {
  const intentId = buyer.intent!.paymentIntentId;
  expect(await shop.db('orders').where({ stripePaymentIntentId: intentId })).toHaveLength(1);
  expect(await shop.db('sandboxRefunds').where({ paymentIntentId: intentId })).toHaveLength(0);
  expect((await shop.db('checkouts').where({ paymentIntentId: intentId }).first()).status).toBe('completed');
  expect(await stockOf(shop, BOOK)).toBe(0);
  await flushMail(shop);
  const subjects = (await shop.db('outbox').where({ toAddress: buyer.parent.email })).map((m: { subject: string }) => m.subject);
  expect(subjects.filter((s) => /refund/i.test(s))).toEqual([]);
  expect(subjects.filter((s) => /order/i.test(s) && /confirm/i.test(s))).toHaveLength(1);
}

describe('completing one payment from several doors at once, for the last copy', () => {
  it('two confirms at the same moment make one order and no refund', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = await buyerOfTheLastCopy();
      const answers = await Promise.all([confirmRequest(buyer), confirmRequest(buyer)]);
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      expect(answers.some((res) => res.status === 200 && res.body.status === 'succeeded')).toBe(true);
      await expectOneOrderNoRefund(buyer);
      // The parent's page then asks for the order: it is there.
      const completed = await buyer.complete();
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    }
  });

  it('confirm and complete-order at the same moment make one order and no refund', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = await buyerOfTheLastCopy();
      // The card went through at the provider; every door now races to make the order.
      await shop.db('sandboxPaymentIntents').where({ id: buyer.intent!.paymentIntentId }).update({ status: 'succeeded' });
      const answers = await Promise.all([buyer.complete(), confirmRequest(buyer), buyer.complete()]);
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      await expectOneOrderNoRefund(buyer);
    }
  });
});
