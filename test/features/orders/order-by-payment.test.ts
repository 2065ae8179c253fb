import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { placePaidOrder } from '../../helpers/orders.ts';

// GET /api/orders/by-payment-intent/:paymentIntentId lets the card form find an order whose
// complete-order call was lost: the payment went through, and another door made the order.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const lookup = (paymentIntentId: string) => `/api/orders/by-payment-intent/${encodeURIComponent(paymentIntentId)}`;

describe('GET /api/orders/by-payment-intent/:paymentIntentId', () => {
  it("answers the caller's own order, as GET /api/orders/:id does", async () => {
    const { buyer, orderId } = await placePaidOrder(shop, { quantity: 1 });
    const paymentIntentId = buyer.intent!.paymentIntentId;
    const res = await buyer.get(lookup(paymentIntentId)).expect(200);
    expect(res.body).toMatchObject({ id: orderId, stripePaymentIntentId: paymentIntentId, status: 'succeeded' });
    expect(res.body).toEqual((await buyer.get(`/api/orders/${orderId}`)).body);
  });

  it("answers another customer's payment with 404, as if it did not exist", async () => {
    const { buyer } = await placePaidOrder(shop, { quantity: 1 });
    const stranger = new Buyer(shop);
    await stranger.signUp(stranger.parent);
    const theirs = await stranger.get(lookup(buyer.intent!.paymentIntentId));
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ message: 'Order not found' });
    expect((await stranger.get(lookup('pi_sbx_0123456789abcdef'))).body).toEqual({ message: 'Order not found' });
  });

  it('is for signed-in customers only', async () => {
    const { buyer } = await placePaidOrder(shop, { quantity: 1 });
    const visitor = new Buyer(shop);
    const res = await visitor.get(lookup(buyer.intent!.paymentIntentId));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Please sign in to continue.' });
  });

  const malformed = 'Payment intent id must look like pi_ followed by letters and digits';
  it.each([
    ['abc', malformed],
    ['pi_', malformed],
    ['pi_abc-def', malformed],
    ["pi_x' OR 1=1", malformed],
    [`pi_${'a'.repeat(300)}`, 'Payment intent id is too long'],
  ])('refuses the id %j with 400 and a message', async (bad, message) => {
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    const res = await buyer.get(lookup(bad));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });
});
