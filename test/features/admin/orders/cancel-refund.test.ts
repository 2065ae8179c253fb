import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, toCents } from '../../../../src/lib/money.ts';
import { createLogger } from '../../../../src/log.ts';
import { readCatalogueVersion } from '../../../../src/features/catalog/catalogue-version.ts';
import { createSandboxProvider } from '../../../../src/features/payments/index.ts';
import { createOrderRefunds, STALE_REFUND_MS } from '../../../../src/features/admin/orders/order-refunds.ts';
import { buildTestShop, flushMail, type TestShop } from '../../../helpers/app.ts';
import { setStock, stockOf } from '../../../helpers/checkout.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { orderForm, placePaidOrder, postForm } from '../../../helpers/orders.ts';

// Cancel-and-refund and partial refunds on the sandbox provider, with real parallel
// requests: money goes back and books go back into stock exactly once, and the refunded
// total never exceeds what was paid. Run on SQLite and on MariaDB + Redis.
let shop: TestShop;

beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(async () => {
  await shop.close();
});

const BOOK = 2;
const QUANTITY = 3;

async function paidOrder() {
  await setStock(shop, BOOK, 20);
  const placed = await placePaidOrder(shop, { bookId: BOOK, quantity: QUANTITY });
  const order = await shop.db('orders').where({ id: placed.orderId }).first();
  return { ...placed, totalCents: toCents(order.totalAmount), paymentIntentId: order.stripePaymentIntentId as string };
}

/** A page's or an email's heading. */
const headingOf = (html: string) => /<h1(?: style="[^"]*")?>([^<]+)<\/h1>/.exec(html)?.[1];

async function outcome(orderId: number, paymentIntentId: string) {
  const order = await shop.db('orders').where({ id: orderId }).first();
  return {
    status: order.status as string,
    refundedCents: toCents(order.refundedAmount),
    stock: await stockOf(shop, BOOK),
    providerRefunds: await shop.db('sandbox_refunds').where({ paymentIntentId }),
    succeededRefunds: await shop.db('refunds').where({ orderId, status: 'succeeded' }),
    cancelEntries: await shop.db('audit_log').where({ orderId, action: 'canceled' }),
    cancelEmails: await shop.db('outbox').where({ orderId }).where('subject', 'like', '%canceled and refunded%'),
  };
}

describe('cancel and refund a paid order', () => {
  it('refunds the whole payment, returns the stock, emails the customer and tells them on the dashboard', async () => {
    const { buyer, orderId, totalCents, paymentIntentId } = await paidOrder();
    expect(await stockOf(shop, BOOK)).toBe(20 - QUANTITY);
    const { agent } = await operatorBrowser(shop);
    const form = await orderForm(agent, orderId);
    expect(form.html).toContain(`Yes, cancel and refund $${(totalCents / 100).toFixed(2)}`);

    const version = await readCatalogueVersion(shop.db);
    const unconfirmed = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey });
    expect(unconfirmed.status).toBe(400);
    expect(await readCatalogueVersion(shop.db)).toBe(version);
    expect(unconfirmed.text).toContain('Please tick the box to confirm the cancel and refund.');
    expect((await outcome(orderId, paymentIntentId)).status).toBe('succeeded');

    const res = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    expect(res.status).toBe(303);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.status).toBe('canceled');
    expect(after.refundedCents).toBe(totalCents);
    expect(after.stock).toBe(20);
    // The restocked copies show on the next catalogue page.
    expect(await readCatalogueVersion(shop.db)).toBeGreaterThan(version);
    expect(after.providerRefunds.map((r) => Number(r.amountCents))).toEqual([totalCents]);
    expect(after.cancelEmails).toHaveLength(1);

    const dashboard = await buyer.get('/dashboard?tab=orders');
    expect(dashboard.text).toContain(`was canceled and $${(totalCents / 100).toFixed(2)} was refunded to your card.`);
    expect((await buyer.get('/api/orders')).body[0]).toMatchObject({ status: 'canceled', refundedAmount: (totalCents / 100).toFixed(2) });

    // The email tells the order page's story: its heading and the amount refunded, in both parts.
    const page = (await buyer.get(`/order-confirmation?orderId=${orderId}`)).text;
    const email = after.cancelEmails[0] as { textBody: string; htmlBody: string };
    expect(headingOf(page)).toBe('Order Canceled');
    expect(headingOf(email.htmlBody)).toBe(headingOf(page));
    expect(email.textBody.split('\n')[0]).toBe(headingOf(page));
    const refunded = `Order #${orderId} was canceled and ${formatUsd(totalCents)} was refunded to your card.`;
    for (const told of [page, dashboard.text, email.textBody, email.htmlBody]) expect(told).toContain(refunded);
    await flushMail(shop);
  });

  for (const [label, parallel, sameKey] of [
    ['two submits of one form (double click)', 2, true],
    ['five submits of one form', 5, true],
    ['two tabs (different keys)', 2, false],
    ['five tabs (different keys)', 5, false],
  ] as const) {
    it(`refunds and restocks exactly once under ${label}`, async () => {
      const { orderId, totalCents, paymentIntentId } = await paidOrder();
      const { agent } = await operatorBrowser(shop);
      // Rendered one after another (each render is a tab); submitted all at once.
      const forms: Awaited<ReturnType<typeof orderForm>>[] = [];
      for (let i = 0; i < (sameKey ? 1 : parallel); i++) forms.push(await orderForm(agent, orderId));
      const csrf = forms.at(-1)!.csrf;
      const answers = await Promise.all(
        Array.from({ length: parallel }, (_, i) => {
          const form = forms[sameKey ? 0 : i]!;
          return postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: csrf, requestKey: form.cancelKey, confirm: 'yes' });
        }),
      );
      for (const answer of answers) expect([303, 409], answer.text.slice(0, 500)).toContain(answer.status);
      expect(answers.filter((a) => a.status === 303).length).toBeGreaterThanOrEqual(1);
      const after = await outcome(orderId, paymentIntentId);
      expect(after.status).toBe('canceled');
      expect(after.refundedCents).toBe(totalCents);
      expect(after.stock).toBe(20);
      expect(after.providerRefunds).toHaveLength(1);
      expect(after.succeededRefunds).toHaveLength(1);
      expect(after.cancelEntries).toHaveLength(1);
      expect(after.cancelEmails).toHaveLength(1);
    });
  }

  it('finishes a cancel whose refund was left pending (a crash after the provider call) without refunding twice', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidOrder();
    const { agent, operator } = await operatorBrowser(shop);
    // The state a crash leaves: the row reserved, the provider already asked, nothing else done.
    const [refundId] = await shop.db('refunds').insert({
      orderId,
      amount: (totalCents / 100).toFixed(2),
      reason: 'Order canceled',
      status: 'pending',
      requestKey: 'cancel:crashed-request-0001',
      actorId: operator.id,
      createdAt: new Date(),
    });
    await createSandboxProvider(shop.db).refund({ paymentIntentId, idempotencyKey: `refund-${refundId}`, amountCents: totalCents });

    const form = await orderForm(agent, orderId);
    expect(form.html).toContain(`Yes, cancel and refund $${(totalCents / 100).toFixed(2)}`);
    const res = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' });
    expect(res.status).toBe(303);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.status).toBe('canceled');
    expect(after.refundedCents).toBe(totalCents);
    expect(after.stock).toBe(20);
    expect(after.providerRefunds).toHaveLength(1);
    expect(after.cancelEmails).toHaveLength(1);
    expect(await shop.db('refunds').where({ orderId })).toHaveLength(1);
  });

  it('finishes a partial refund left pending with "Ask the provider again", once', async () => {
    const { orderId, paymentIntentId } = await paidOrder();
    const { agent, operator } = await operatorBrowser(shop);
    const [refundId] = await shop.db('refunds').insert({
      orderId,
      amount: '4.00',
      reason: 'Scuffed',
      status: 'pending',
      requestKey: 'refund:crashed-request-0002',
      actorId: operator.id,
      createdAt: new Date(),
    });
    await createSandboxProvider(shop.db).refund({ paymentIntentId, idempotencyKey: `refund-${refundId}`, amountCents: 400 });

    const { csrf, html } = await orderForm(agent, orderId);
    expect(html).toContain(`action="/admin/orders/${orderId}/refunds/${refundId}/resume"`);
    const answers = await Promise.all(
      [1, 2].map(() => postForm(agent, `/admin/orders/${orderId}/refunds/${refundId}/resume`, { _csrf: csrf })),
    );
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.refundedCents).toBe(400);
    expect(after.providerRefunds).toHaveLength(1);
    expect(await shop.db('audit_log').where({ orderId, action: 'refunded' })).toHaveLength(1);
    expect((await postForm(agent, `/admin/orders/${orderId}/refunds/999999/resume`, { _csrf: csrf })).status).toBe(404);
  });
});

describe('the sweep', () => {
  it('finishes refunds left pending past the grace period, once, and leaves fresh ones to their request', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidOrder();
    const { operator } = await operatorBrowser(shop);
    const createdAt = new Date();
    const [refundId] = await shop.db('refunds').insert({
      orderId,
      amount: (totalCents / 100).toFixed(2),
      reason: 'Order canceled',
      status: 'pending',
      requestKey: 'cancel:stale-request-00001',
      actorId: operator.id,
      createdAt,
    });
    const refunds = createOrderRefunds({
      db: shop.db,
      payments: createSandboxProvider(shop.db),
      mailer: shop.mailer,
      log: createLogger('silent'),
    });

    expect(await refunds.resumeStale(new Date(createdAt.getTime() + STALE_REFUND_MS - 60_000))).toBe(0);
    expect((await shop.db('refunds').where({ id: refundId }).first()).status).toBe('pending');

    const later = new Date(createdAt.getTime() + STALE_REFUND_MS + 60_000);
    const swept = await Promise.all([refunds.resumeStale(later), refunds.resumeStale(later)]);
    expect(swept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.status).toBe('canceled');
    expect(after.refundedCents).toBe(totalCents);
    expect(after.stock).toBe(20);
    expect(after.providerRefunds).toHaveLength(1);
    expect(after.cancelEntries).toHaveLength(1);
    expect(after.cancelEntries[0].actorId).toBe(operator.id);
  });
});

describe('refund an amount', () => {
  it('refuses zero, negative, malformed and more-than-left amounts with a message, changing nothing', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidOrder();
    const { agent } = await operatorBrowser(shop);
    const form = await orderForm(agent, orderId);
    const refund = (amount: string) =>
      postForm(agent, `/admin/orders/${orderId}/refund`, { _csrf: form.csrf, requestKey: form.refundKey, amount, reason: 'Damaged book' });

    const zero = await refund('0');
    expect(zero.status).toBe(400);
    expect(zero.text).toContain('Please enter an amount greater than $0.00.');
    expect((await refund('0.00')).status).toBe(400);
    const negative = await refund('-5');
    expect(negative.status).toBe(400);
    expect(negative.text).toContain('like 4.99');
    expect((await refund('abc')).status).toBe(400);
    expect((await refund('1.999')).status).toBe(400);
    const tooMuch = await refund(((totalCents + 1) / 100).toFixed(2));
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.text).toContain(`You can refund at most $${(totalCents / 100).toFixed(2)} on this order.`);
    const missingReason = await postForm(agent, `/admin/orders/${orderId}/refund`, {
      _csrf: form.csrf,
      requestKey: form.refundKey,
      amount: '1.00',
      reason: ' ',
    });
    expect(missingReason.status).toBe(400);

    const after = await outcome(orderId, paymentIntentId);
    expect(after.refundedCents).toBe(0);
    expect(after.providerRefunds).toHaveLength(0);
    expect(await shop.db('refunds').where({ orderId })).toHaveLength(0);
  });

  it('refunds part of the payment once per form, then exactly what is left, never more', async () => {
    const { buyer, orderId, totalCents, paymentIntentId } = await paidOrder();
    const { agent } = await operatorBrowser(shop);
    const form = await orderForm(agent, orderId);
    const first = { _csrf: form.csrf, requestKey: form.refundKey, amount: '5.00', reason: 'Bent cover' };
    const answers = await Promise.all([
      postForm(agent, `/admin/orders/${orderId}/refund`, first),
      postForm(agent, `/admin/orders/${orderId}/refund`, first),
    ]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    expect((await outcome(orderId, paymentIntentId)).refundedCents).toBe(500);
    // The email gives this refund's amount and reason, then what the order's page now says of it.
    const told = (await shop.db('outbox').where({ orderId }).where('subject', 'like', 'A refund on your order%').first()) as {
      textBody: string;
      htmlBody: string;
    };
    const page = (await buyer.get(`/order-confirmation?orderId=${orderId}`)).text;
    for (const part of [page, told.textBody, told.htmlBody]) expect(part).toContain('$5.00 of this order was refunded to your card.');
    for (const part of [told.textBody, told.htmlBody]) expect(part).toContain('Bent cover');

    const next = await orderForm(agent, orderId);
    const rest = ((totalCents - 500) / 100).toFixed(2);
    expect(
      (
        await postForm(agent, `/admin/orders/${orderId}/refund`, {
          _csrf: next.csrf,
          requestKey: next.refundKey,
          amount: rest,
          reason: 'Lost in the post',
        })
      ).status,
    ).toBe(303);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.refundedCents).toBe(totalCents);
    expect(after.status).toBe('succeeded');
    expect(after.providerRefunds.map((r) => Number(r.amountCents)).sort((a, b) => a - b)).toEqual(
      [500, totalCents - 500].sort((a, b) => a - b),
    );
    expect(await shop.db('outbox').where({ orderId }).where('subject', 'like', 'A refund on your order%')).toHaveLength(2);
  });

  it('lets only one of two parallel partial refunds through when together they exceed the total', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidOrder();
    const { agent } = await operatorBrowser(shop);
    const a = await orderForm(agent, orderId);
    const b = await orderForm(agent, orderId);
    const amount = ((Math.floor(totalCents / 2) + 100) / 100).toFixed(2);
    const answers = await Promise.all(
      [a, b].map((form) =>
        postForm(agent, `/admin/orders/${orderId}/refund`, { _csrf: b.csrf, requestKey: form.refundKey, amount, reason: 'Damaged' }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.refundedCents).toBe(toCents(amount));
    expect(after.providerRefunds).toHaveLength(1);
  });

  it('cancels an order that was partly refunded by refunding only what is left', async () => {
    const { orderId, totalCents, paymentIntentId } = await paidOrder();
    const { agent } = await operatorBrowser(shop);
    let form = await orderForm(agent, orderId);
    expect(
      (
        await postForm(agent, `/admin/orders/${orderId}/refund`, {
          _csrf: form.csrf,
          requestKey: form.refundKey,
          amount: '3.00',
          reason: 'Torn page',
        })
      ).status,
    ).toBe(303);
    form = await orderForm(agent, orderId);
    expect(form.html).toContain(`Yes, cancel and refund $${((totalCents - 300) / 100).toFixed(2)}`);
    expect(
      (await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' })).status,
    ).toBe(303);
    const after = await outcome(orderId, paymentIntentId);
    expect(after.status).toBe('canceled');
    expect(after.refundedCents).toBe(totalCents);
    expect(after.stock).toBe(20);
    expect(after.providerRefunds.map((r) => Number(r.amountCents)).sort((x, y) => x - y)).toEqual(
      [300, totalCents - 300].sort((x, y) => x - y),
    );
  });
});
