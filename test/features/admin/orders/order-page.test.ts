import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, formToken, type TestShop } from '../../../helpers/app.ts';
import { stockOf } from '../../../helpers/checkout.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { orderForm, placePaidOrder, postForm } from '../../../helpers/orders.ts';
import { startSmtpSink, type SmtpSink } from '../../../helpers/smtp-sink.ts';

// The operator's order page: shipping reaches the customer everywhere they look, the
// transitions (docs/architecture.md, "Order status") hold, and the timeline tells the story with names.
let sink: SmtpSink;
let shop: TestShop;

beforeAll(async () => {
  sink = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await shop.close();
  await sink.close();
});

const ship = (
  agent: Awaited<ReturnType<typeof operatorBrowser>>['agent'],
  orderId: number,
  csrf: string,
  overrides: Record<string, string> = {},
) =>
  postForm(agent, `/admin/orders/${orderId}/ship`, {
    _csrf: csrf,
    carrier: 'UPS',
    trackingNumber: '1Z999AA10123456784',
    estimatedDelivery: '2026-12-02',
    ...overrides,
  });

describe('shipping an order', () => {
  it('reaches the customer: dashboard HTML, GET /api/orders, the confirmation page and an email over SMTP', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const { agent } = await operatorBrowser(shop);
    const { csrf } = await orderForm(agent, orderId);

    const res = await ship(agent, orderId, csrf);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/admin/orders/${orderId}`);

    const trackingLink = 'https://www.ups.com/track?tracknum=1Z999AA10123456784';
    const dashboard = await buyer.get('/dashboard?tab=orders');
    expect(dashboard.text).toContain('Shipped');
    expect(dashboard.text).toContain('UPS');
    expect(dashboard.text).toContain(`href="${trackingLink}"`);
    expect(dashboard.text).toContain('December 2, 2026');

    const confirmation = await buyer.get(`/order-confirmation?orderId=${orderId}`);
    expect(confirmation.text).toContain(`href="${trackingLink}"`);
    expect(confirmation.text).toMatch(/status-blue">Shipped</);

    // The email tells the confirmation page's story: its heading, the carrier and tracking number, the day.
    const email = (await shop.db('outbox').where({ orderId }).where('subject', 'like', '%is on its way').first()) as {
      textBody: string;
      htmlBody: string;
    };
    const pageHeading = /<h1>([^<]+)<\/h1>/.exec(confirmation.text)?.[1];
    expect(pageHeading).toBe('Your Order Is on Its Way');
    expect(/<h1 style="[^"]*">([^<]+)<\/h1>/.exec(email.htmlBody)?.[1]).toBe(pageHeading);
    expect(email.textBody.split('\n')[0]).toBe(pageHeading);
    for (const sentence of [
      `Good news: order #${orderId} has shipped with UPS. Its tracking number is 1Z999AA10123456784.`,
      'It should arrive by December 2, 2026.',
    ]) {
      for (const told of [confirmation.text, email.textBody, email.htmlBody]) expect(told).toContain(sentence);
    }

    const api = await buyer.get('/api/orders');
    expect(api.body[0]).toMatchObject({
      id: orderId,
      status: 'shipped',
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      trackingUrl: trackingLink,
      estimatedDelivery: '2026-12-02',
    });
    expect((await buyer.get(`/api/orders/${orderId}/stripe-status`)).body).toEqual({
      stripeStatus: 'succeeded',
      status: 'shipped',
      statusLabel: 'Shipped',
    });

    await flushMail(shop);
    const mail = sink.received.find((m) => m.rcptTo.includes(buyer.parent.email) && m.raw.includes(`order #${orderId} is on its way`));
    expect(mail, 'shipped email').toBeDefined();
    expect(mail!.raw).toContain('1Z999AA10123456784');
    expect(mail!.raw).toContain(trackingLink);
    expect(mail!.raw).toContain('December 2, 2026');
  });

  it("has no tracking link for 'Other' and refuses a carrier it does not know, a missing tracking number or a bad date", async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const { agent } = await operatorBrowser(shop);
    const { csrf } = await orderForm(agent, orderId);
    expect((await ship(agent, orderId, csrf, { carrier: 'Pigeon' })).status).toBe(400);
    const missing = await ship(agent, orderId, csrf, { trackingNumber: '' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Please enter the tracking number.');
    expect((await ship(agent, orderId, csrf, { estimatedDelivery: '2026-02-31' })).status).toBe(400);
    expect((await shop.db('orders').where({ id: orderId }).first()).status).toBe('succeeded');

    expect((await ship(agent, orderId, csrf, { carrier: 'Other', trackingNumber: 'LOCAL-7' })).status).toBe(303);
    const api = await buyer.get(`/api/orders/${orderId}`);
    expect(api.body).toMatchObject({ status: 'shipped', carrier: 'Other', trackingNumber: 'LOCAL-7', trackingUrl: null });
  });
});

describe('status transitions', () => {
  it('answers 409 with a readable message for every transition that is not allowed, and changes nothing', async () => {
    const { orderId } = await placePaidOrder(shop);
    const { agent } = await operatorBrowser(shop);
    let { csrf } = await orderForm(agent, orderId);

    const early = await postForm(agent, `/admin/orders/${orderId}/delivered`, { _csrf: csrf });
    expect(early.status).toBe(409);
    expect(early.text).toContain('This order is paid and not shipped yet, so it cannot be marked delivered.');

    expect((await ship(agent, orderId, csrf)).status).toBe(303);
    const twice = await ship(agent, orderId, csrf);
    expect(twice.status).toBe(409);
    expect(twice.text).toContain('This order is shipped, so it cannot be marked shipped.');
    ({ csrf } = await orderForm(agent, orderId));
    const cancelShipped = await postForm(agent, `/admin/orders/${orderId}/cancel`, {
      _csrf: csrf,
      requestKey: 'k'.repeat(32),
      confirm: 'yes',
    });
    expect(cancelShipped.status).toBe(409);
    expect(cancelShipped.text).toContain('cannot be canceled');

    expect((await postForm(agent, `/admin/orders/${orderId}/delivered`, { _csrf: csrf })).status).toBe(303);
    expect((await postForm(agent, `/admin/orders/${orderId}/delivered`, { _csrf: csrf })).status).toBe(409);
    expect((await ship(agent, orderId, csrf)).status).toBe(409);
    const row = await shop.db('orders').where({ id: orderId }).first();
    expect(row.status).toBe('delivered');
    expect(await shop.db('audit_log').where({ orderId })).toHaveLength(2);
  });

  it('answers 404 for an order that does not exist or an id that is not one', async () => {
    const { agent } = await operatorBrowser(shop);
    expect((await agent.get('/admin/orders/999999')).status).toBe(404);
    expect((await agent.get('/admin/orders/abc')).status).toBe(404);
    const { orderId } = await placePaidOrder(shop);
    const { csrf } = await orderForm(agent, orderId);
    expect((await postForm(agent, '/admin/orders/999999/delivered', { _csrf: csrf })).status).toBe(404);
  });
});

describe('who may use it', () => {
  it('is a 404 for a customer, on the page and on every form, even for their own order', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const stockBefore = await stockOf(shop, 1);
    expect((await buyer.get(`/admin/orders/${orderId}`)).status).toBe(404);
    const csrf = formToken((await buyer.get('/dashboard')).text);
    for (const action of ['ship', 'delivered', 'cancel', 'refund']) {
      const res = await postForm(buyer.agent, `/admin/orders/${orderId}/${action}`, {
        _csrf: csrf,
        carrier: 'UPS',
        trackingNumber: 'X1',
        estimatedDelivery: '2026-12-02',
        requestKey: 'c'.repeat(32),
        confirm: 'yes',
        amount: '1.00',
        reason: 'x',
      });
      expect(res.status, action).toBe(404);
    }
    expect((await shop.db('orders').where({ id: orderId }).first()).status).toBe('succeeded');
    expect(await stockOf(shop, 1)).toBe(stockBefore);
    expect(await shop.db('refunds').where({ orderId })).toHaveLength(0);
  });
});

describe('the timeline', () => {
  it('lists placed, each email, shipped and refunded, oldest first, with the operator\u2019s name', async () => {
    const { orderId } = await placePaidOrder(shop);
    const { agent } = await operatorBrowser(shop);
    let form = await orderForm(agent, orderId);
    expect((await ship(agent, orderId, form.csrf)).status).toBe(303);
    form = await orderForm(agent, orderId);
    expect(
      (
        await postForm(agent, `/admin/orders/${orderId}/refund`, {
          _csrf: form.csrf,
          requestKey: form.refundKey,
          amount: '2.50',
          reason: 'Bent cover',
        })
      ).status,
    ).toBe(303);
    await flushMail(shop);

    const html = (await agent.get(`/admin/orders/${orderId}`)).text;
    const timeline = html.slice(html.indexOf('id="timeline-heading"'));
    const order = [
      'Placed and paid',
      `Email: Your order #${orderId} is confirmed`,
      'Shipped with UPS, tracking 1Z999AA10123456784',
      `Email: Your order #${orderId} is on its way`,
      'Refunded $2.50',
      `Email: A refund on your order #${orderId}`,
    ];
    const positions = order.map((text) => timeline.indexOf(text));
    for (const [i, p] of positions.entries()) expect(p, order[i]).toBeGreaterThan(-1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(timeline).toContain('Reason: Bent cover');
    expect(timeline.match(/Olive Page/g)?.length).toBe(2);
    expect(timeline).toContain('Queued, sent');
    expect(html).toContain(`href="/admin/orders/${orderId}/packing-slip"`);
  });
});
