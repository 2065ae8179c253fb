import type supertest from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { textOf } from '../../helpers/admin-fixtures.ts';
import type { Buyer } from '../../helpers/checkout.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { orderForm, placePaidOrder, postForm } from '../../helpers/orders.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

// What parents and the operator read about an order's status: the shop's plain words (Paid,
// Partly refunded, Waiting for payment...), never the payment provider's, and the payment's
// reference only as a line for support, on the confirmation page and the admin's order page.
let sink: SmtpSink;
let shop: TestShop;
let operator: supertest.Agent;

beforeAll(async () => {
  sink = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: sink.url } });
  ({ agent: operator } = await operatorBrowser(shop));
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await shop.close();
  await sink.close();
});

/** Words of the payment provider a parent should never read. */
const PROVIDER_WORDS = /succeeded|requires[ _]|payment[ _]method|payment id|payment intent|no_payment|stripe_error/i;

const badge = (html: string) => /<span class="status status-(\w+)">([^<]*)<\/span>/.exec(html)?.slice(1);
const dashboardBadge = (html: string, orderId: number) =>
  badge(new RegExp(`<h3>Order #${orderId}</h3>\\s*(<span[^>]*>[^<]*</span>)`).exec(html)?.[1] ?? '');
const adminRowBadge = (html: string, orderId: number) =>
  badge(new RegExp(`href="/admin/orders/${orderId}"[\\s\\S]*?(<span class="status[^>]*>[^<]*</span>)`).exec(html)?.[1] ?? '');

async function intentOf(buyer: Buyer, orderId: number): Promise<string> {
  const order = await buyer.get(`/api/orders/${orderId}`).expect(200);
  return order.body.stripePaymentIntentId as string;
}

async function refund(orderId: number, amount: string) {
  const form = await orderForm(operator, orderId);
  const res = await postForm(operator, `/admin/orders/${orderId}/refund`, {
    _csrf: form.csrf,
    requestKey: form.refundKey,
    amount,
    reason: 'A bent cover',
  });
  expect(res.status, res.text.slice(0, 300)).toBe(303);
}

describe('a paid order, as the parent reads it', () => {
  it('says "Paid" on the dashboard and the confirmation page, and gives the payment reference to support alone', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const intent = await intentOf(buyer, orderId);
    expect(intent).toMatch(/^pi_/);

    const dashboard = (await buyer.get('/dashboard?tab=orders').expect(200)).text;
    expect(dashboardBadge(dashboard, orderId)).toEqual(['green', 'Paid']);
    expect(textOf(dashboard)).not.toMatch(PROVIDER_WORDS);
    expect(dashboard).not.toContain(intent);

    const confirmation = (await buyer.get(`/order-confirmation?orderId=${orderId}`).expect(200)).text;
    expect(/<dt>Status<\/dt><dd>(<span[^>]*>[^<]*<\/span>)/.exec(confirmation)?.[1]).toBe('<span class="status status-green">Paid</span>');
    // The reference is a small line for support, not one of the order's facts.
    expect(textOf(confirmation)).toContain(`Payment reference (for our support team): ${intent}`);
    expect(/<dl class="order-facts">[\s\S]*?<\/dl>/.exec(confirmation)?.[0]).not.toContain(intent);
    expect(textOf(confirmation).replace(intent, '')).not.toMatch(PROVIDER_WORDS);
    expect(textOf(confirmation).split(intent)).toHaveLength(2);
  });

  it('keeps the API’s machine status and adds the label beside it', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    expect((await buyer.get(`/api/orders/${orderId}`).expect(200)).body).toMatchObject({ status: 'succeeded', statusLabel: 'Paid' });
    expect((await buyer.get('/api/orders').expect(200)).body[0]).toMatchObject({ id: orderId, status: 'succeeded', statusLabel: 'Paid' });
    expect((await buyer.get(`/api/orders/${orderId}/stripe-status`).expect(200)).body).toEqual({
      stripeStatus: 'succeeded',
      status: 'succeeded',
      statusLabel: 'Paid',
    });
  });

  it.each([
    ['requires_payment_method', 'yellow', 'Waiting for payment', 'Payment Not Finished'],
    ['requires_action', 'yellow', 'Waiting for payment', 'Payment Not Finished'],
    ['processing', 'blue', 'Processing', 'Payment Processing'],
  ] as const)('while the provider says %s, the confirmation page says %s "%s"', async (provider, tone, label, heading) => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const real = shop.services.payments.retrievePaymentIntent.bind(shop.services.payments);
    vi.spyOn(shop.services.payments, 'retrievePaymentIntent').mockImplementation(async (id) => ({ ...(await real(id)), status: provider }));
    const confirmation = (await buyer.get(`/order-confirmation?orderId=${orderId}`).expect(200)).text;
    expect(/<h1>([^<]*)<\/h1>/.exec(confirmation)?.[1]).toBe(heading);
    expect(badge(/<dl class="order-facts">[\s\S]*?<\/dl>/.exec(confirmation)?.[0] ?? '')).toEqual([tone, label]);
    const intent = await intentOf(buyer, orderId);
    expect(textOf(confirmation).replace(intent, '')).not.toMatch(PROVIDER_WORDS);
    expect((await buyer.get(`/api/orders/${orderId}/stripe-status`).expect(200)).body).toEqual({
      stripeStatus: provider,
      status: provider,
      statusLabel: label,
    });
  });
});

describe('money given back, as the parent and the operator read it', () => {
  it('a partly refunded order says "Partly refunded" on the dashboard, the confirmation, the API and the admin list; refunded in full, "Refunded"', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    await refund(orderId, '2.50');

    const dashboard = (await buyer.get('/dashboard?tab=orders').expect(200)).text;
    expect(dashboardBadge(dashboard, orderId)).toEqual(['green', 'Partly refunded']);
    expect(textOf(dashboard)).toContain('$2.50 of this order was refunded to your card.');
    const confirmation = (await buyer.get(`/order-confirmation?orderId=${orderId}`).expect(200)).text;
    expect(badge(/<dl class="order-facts">[\s\S]*?<\/dl>/.exec(confirmation)?.[0] ?? '')).toEqual(['green', 'Partly refunded']);
    expect((await buyer.get(`/api/orders/${orderId}`).expect(200)).body).toMatchObject({
      status: 'succeeded',
      statusLabel: 'Partly refunded',
      refundedAmount: '2.50',
    });

    // The list's filter says "Paid": the order is still there, its badge says what changed.
    const paidList = (await operator.get('/admin/orders?status=paid').expect(200)).text;
    expect(adminRowBadge(paidList, orderId)).toEqual(['green', 'Partly refunded']);
    const orderPage = (await operator.get(`/admin/orders/${orderId}`).expect(200)).text;
    expect(badge(/<header class="page-hero compact">[\s\S]*?<\/header>/.exec(orderPage)?.[0] ?? '')).toEqual(['green', 'Partly refunded']);
    // The operator still has the payment's reference where a refund or a dispute needs it.
    expect(textOf(orderPage)).toContain(await intentOf(buyer, orderId));
    expect(textOf(orderPage)).not.toContain('Succeeded');

    const left = /At most \$(\d+\.\d{2}), what is left/.exec(orderPage)?.[1];
    expect(left).toMatch(/^\d+\.\d{2}$/);
    await refund(orderId, left!);
    expect(adminRowBadge((await operator.get('/admin/orders?status=paid').expect(200)).text, orderId)).toEqual(['green', 'Refunded']);
    expect(dashboardBadge((await buyer.get('/dashboard?tab=orders').expect(200)).text, orderId)).toEqual(['green', 'Refunded']);
    expect((await buyer.get(`/api/orders/${orderId}`).expect(200)).body).toMatchObject({ status: 'succeeded', statusLabel: 'Refunded' });
  });

  it('a canceled order says "Canceled", as the list’s filter does', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const form = await orderForm(operator, orderId);
    const res = await postForm(operator, `/admin/orders/${orderId}/cancel`, {
      _csrf: form.csrf,
      requestKey: form.cancelKey,
      confirm: 'yes',
    });
    expect(res.status).toBe(303);
    const list = (await operator.get('/admin/orders?status=canceled').expect(200)).text;
    expect(list).toContain('<option value="canceled" selected>Canceled</option>');
    expect(adminRowBadge(list, orderId)).toEqual(['red', 'Canceled']);
    expect(dashboardBadge((await buyer.get('/dashboard?tab=orders').expect(200)).text, orderId)).toEqual(['red', 'Canceled']);
  });
});

describe('the emails of an order', () => {
  it('tell its story over SMTP in the shop’s words: no provider word and no payment id, paid, part refunded, shipped or canceled', async () => {
    const { buyer, orderId } = await placePaidOrder(shop);
    const intent = await intentOf(buyer, orderId);
    await refund(orderId, '1.00');
    let form = await orderForm(operator, orderId);
    const shipped = await postForm(operator, `/admin/orders/${orderId}/ship`, {
      _csrf: form.csrf,
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      estimatedDelivery: '2026-12-02',
    });
    expect(shipped.status).toBe(303);
    const second = await placePaidOrder(shop);
    form = await orderForm(operator, second.orderId);
    await postForm(operator, `/admin/orders/${second.orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    await flushMail(shop);

    const toParent = (email: string) => sink.received.filter((m) => m.rcptTo.includes(email));
    const mails = [...toParent(buyer.parent.email), ...toParent(second.buyer.parent.email)];
    const subjects = mails.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '');
    // Confirmation, part refund and shipping of the first; confirmation and cancel of the second.
    expect(mails.length, subjects.join(' | ')).toBeGreaterThanOrEqual(5);
    expect(mails.some((m) => m.raw.includes('$1.00 of this order was refunded to your card.'))).toBe(true);
    expect(mails.some((m) => m.raw.includes(`order #${orderId} is on its way`))).toBe(true);
    expect(mails.some((m) => m.raw.includes(`Order #${second.orderId} was canceled and`))).toBe(true);
    for (const mail of mails) {
      const body = mail.raw.slice(mail.raw.search(/\r?\n\r?\n/));
      expect(body, subjects[mails.indexOf(mail)]).not.toMatch(PROVIDER_WORDS);
      expect(body).not.toContain(intent);
      expect(body).not.toMatch(/\bpi_[A-Za-z0-9]/);
    }
  });
});
