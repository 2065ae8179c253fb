import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS } from '../../helpers/checkout.ts';

// The sandbox routes answer a customer's mistakes with a 4xx and a message, never a 500,
// and change nothing when they refuse.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

async function buyerWithIntent() {
  const buyer = new Buyer(shop);
  await buyer.signUp(buyer.parent);
  await buyer.add(1);
  const started = await buyer.startPayment({});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return buyer;
}

const statusOf = async (id: string) => (await shop.db('sandbox_payment_intents').where({ id }).first()).status as string;
const card = { cardNumber: CARDS.success, expiry: '12/34', cvc: '123' };

describe('sandbox payment errors', () => {
  it('answers a wrong client secret on confirm with 404 and a message, paying nothing', async () => {
    const buyer = await buyerWithIntent();
    const { paymentIntentId } = buyer.intent!;
    const res = await buyer.send('post', '/api/sandbox/confirm', {
      paymentIntentId,
      clientSecret: `${paymentIntentId}_secret_wrong`,
      ...card,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('This payment could not be found.');
    expect(await statusOf(paymentIntentId)).toBe('requires_payment_method');
  });

  it('answers a wrong client secret on authenticate with 404 and a message, passing no check', async () => {
    const buyer = await buyerWithIntent();
    await buyer.confirm(CARDS.threeDSecure);
    const { paymentIntentId } = buyer.intent!;
    const res = await buyer.send('post', '/api/sandbox/authenticate', { paymentIntentId, clientSecret: 'nope', succeed: true });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('This payment could not be found.');
    expect(await statusOf(paymentIntentId)).toBe('requires_action');
  });

  it('answers a confirm of a payment waiting for 3D Secure with that step again, then lets it finish', async () => {
    const buyer = await buyerWithIntent();
    expect((await buyer.confirm(CARDS.threeDSecure)).status).toBe('requires_action');
    // A reload during the bank's step confirms again: the step is shown again, nothing is paid.
    expect(await buyer.confirm(CARDS.success)).toEqual({ status: 'requires_action', error: null });
    expect(await statusOf(buyer.intent!.paymentIntentId)).toBe('requires_action');
    expect((await buyer.authenticate(true)).status).toBe('succeeded');
  });

  it('answers the order call for a payment still waiting for 3D Secure with 409 and a message, making no order', async () => {
    const buyer = await buyerWithIntent();
    expect((await buyer.confirm(CARDS.threeDSecure)).status).toBe('requires_action');
    const res = await buyer.complete();
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'This payment has not gone through yet.' });
    expect(await shop.db('orders').where({ stripePaymentIntentId: buyer.intent!.paymentIntentId })).toHaveLength(0);
    // A payment the provider never made: 404 with the shop's words, not the provider's.
    const unknown = await buyer.complete('pi_sbx_nosuchintent');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Order not found' });
  });

  it('answers a confirm of a canceled payment with 409 and a message', async () => {
    const buyer = await buyerWithIntent();
    const { paymentIntentId, clientSecret } = buyer.intent!;
    await shop.db('sandbox_payment_intents').where({ id: paymentIntentId }).update({ status: 'canceled' });
    const res = await buyer.send('post', '/api/sandbox/confirm', { paymentIntentId, clientSecret, ...card });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This payment was canceled. Please start checkout again.');
    expect(await statusOf(paymentIntentId)).toBe('canceled');
  });
});
