import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { capturedLog } from '../../helpers/log-capture.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';

// Stripe keeps the name and email of each customer the shop made: an erased account's goes
// too, through the real stripe SDK against a stand-in of Stripe's API.

let standIn: StripeStandIn;
let shop: TestShop;
const { log, lines } = capturedLog('error');

beforeAll(async () => {
  standIn = await startStripeStandIn();
  shop = await buildTestShop({
    log,
    env: { STRIPE_SECRET_KEY: standIn.secretKey, STRIPE_PUBLISHABLE_KEY: 'pk_test_shop', STRIPE_API_URL: standIn.url },
  });
});
afterAll(async () => {
  await shop?.close();
  await standIn?.close();
});

async function parentWithCustomer(): Promise<{ buyer: Buyer; userId: number; customerId: string }> {
  const buyer = new Buyer(shop);
  await buyer.add(1, 1);
  const { user, stripeCustomerId } = await buyer.createAccount();
  expect(standIn.customers.get(stripeCustomerId)).toMatchObject({ email: buyer.parent.email });
  return { buyer, userId: user.id, customerId: stripeCustomerId };
}

describe('erasing an account with a Stripe customer', () => {
  it('deletes the customer at Stripe', async () => {
    const { buyer, userId, customerId } = await parentWithCustomer();
    await shop.services.privacy.eraseOwn(userId, buyer.parent.password);
    expect(standIn.customers.has(customerId)).toBe(false);
    expect(standIn.requests).toContainEqual(
      expect.objectContaining({ method: 'DELETE', path: `/v1/customers/${customerId}`, status: 200 }),
    );
  });

  it('still erases the account when Stripe cannot be asked, and tells the log what to delete by hand', async () => {
    const { buyer, userId, customerId } = await parentWithCustomer();
    standIn.failNext({ status: 500, type: 'api_error', message: 'Something went wrong on Stripe' }, `/v1/customers/${customerId}`);
    await shop.services.privacy.eraseOwn(userId, buyer.parent.password);
    expect(await shop.db('users').where({ id: userId }).first()).toBeUndefined();
    expect(lines.map((line) => line.msg)).toContainEqual(expect.stringContaining('delete it by hand'));
  });
});
