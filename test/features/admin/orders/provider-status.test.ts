import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providerStatusText } from '../../../../src/features/admin/orders/order-details.ts';
import { createLogger } from '../../../../src/log.ts';
import { Unavailable } from '../../../../src/web/errors.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { textOf } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { orderForm, placePaidOrder, postForm } from '../../../helpers/orders.ts';

// The provider keeps a refunded payment's status as 'succeeded'; the order page must not.
describe('the provider status in words', () => {
  const paid = { totalCents: 4646, refundedCents: 0 };
  it('reads as refunded once money went back, in full or in part', () => {
    expect(providerStatusText('succeeded', paid)).toBe('Paid');
    expect(providerStatusText('succeeded', { totalCents: 4646, refundedCents: 4646 })).toBe('Refunded');
    expect(providerStatusText('succeeded', { totalCents: 4646, refundedCents: 250 })).toBe('Partly refunded ($2.50 of $46.46)');
  });

  it('says the provider\u2019s other statuses in the badge\u2019s words, and when it could not be asked or holds no payment', () => {
    expect(providerStatusText('requires_payment_method', paid)).toBe('Waiting for payment');
    expect(providerStatusText('canceled', paid)).toBe('Canceled');
    expect(providerStatusText('stripe_error', paid)).toBe('unavailable');
    expect(providerStatusText('no_payment_intent', paid)).toBe('No payment on record');
  });
});

describe('on the order page', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await buildTestShop();
  });
  afterAll(async () => {
    await shop.close();
  });

  const providerStatus = (html: string) => /Provider status<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];

  it('a canceled order\u2019s payment reads as refunded; a partly refunded one says how much', async () => {
    const { orderId } = await placePaidOrder(shop);
    const { agent } = await operatorBrowser(shop);
    let form = await orderForm(agent, orderId);
    expect(providerStatus(form.html)).toBe('Paid');

    await postForm(agent, `/admin/orders/${orderId}/refund`, {
      _csrf: form.csrf,
      requestKey: form.refundKey,
      amount: '2.50',
      reason: 'Bent cover',
    });
    form = await orderForm(agent, orderId);
    expect(providerStatus(form.html)).toMatch(/^Partly refunded \(\$2\.50 of \$\d+\.\d{2}\)$/);

    await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    const page = (await agent.get(`/admin/orders/${orderId}`).expect(200)).text;
    expect(providerStatus(page)).toBe('Refunded');
    expect(textOf(page)).not.toContain('Succeeded');
  });
});

// A provider that cannot say is never silent: the page still shows the order, its payment
// status 'unavailable', and the failure is logged at error with the request id and the order.
describe('when the provider cannot be asked', () => {
  const lines: Record<string, unknown>[] = [];
  let shop: TestShop;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    shop = await buildTestShop({ log: createLogger('error', stream) });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await shop.close();
  });

  const providerStatus = (html: string) => /Provider status<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];

  it('shows the order with its payment status unavailable, and logs why at error with the request id', async () => {
    const { orderId } = await placePaidOrder(shop);
    const { agent } = await operatorBrowser(shop);
    vi.spyOn(shop.services.payments, 'retrievePaymentIntent').mockRejectedValue(new Unavailable('The payment provider is out of reach.'));
    const page = await agent.get(`/admin/orders/${orderId}`).set('x-request-id', 'order-page-provider').expect(200);
    expect(providerStatus(page.text)).toBe('unavailable');
    const logged = lines.find((line) => line.msg === 'could not ask the payment provider for an order’s status');
    expect(logged).toMatchObject({
      level: 50,
      orderId,
      req: { id: 'order-page-provider' },
      err: { message: 'The payment provider is out of reach.' },
    });
  });
});
