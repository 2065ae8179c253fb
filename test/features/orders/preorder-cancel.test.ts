import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { formatUsd, toCents } from '../../../src/lib/money.ts';
import { buildTestShop, flushMail, formToken, type TestShop } from '../../helpers/app.ts';
import type { Buyer } from '../../helpers/checkout.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { postForm } from '../../helpers/orders.ts';
import { copiesOf, placePaidPreorder, TODAY } from '../../helpers/preorders.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

// A paid pre-order, as its parent reads it and cancels it: the story names the day it ships on
// the confirmation page, the dashboard and the API; the dashboard's "Cancel pre-order" refunds
// it in full at once at the provider, gives the promised copies back, emails the parent and
// shows on the operator's timeline; anything but a pre-order is refused, changing nothing.
// On SQLite, and on MariaDB + Redis when CI sets their URLs.
let sink: SmtpSink;
let shop: TestShop;

beforeAll(async () => {
  sink = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: sink.url }, today: () => TODAY });
});
afterAll(async () => {
  await shop.close();
  await sink.close();
});

/** The order's entry in the dashboard's list. */
async function dashboardEntry(buyer: Buyer, orderId: number): Promise<string> {
  const html = (await buyer.get('/dashboard?tab=orders')).text;
  const start = html.indexOf(`<h3>Order #${orderId}</h3>`);
  expect(start, 'the order is listed').toBeGreaterThan(-1);
  const next = html.indexOf('<li class="order">', start);
  return html.slice(start, next === -1 ? undefined : next);
}

/** The cancel form of that order on the dashboard: its CSRF token and one-time key. */
async function cancelForm(buyer: Buyer, orderId: number): Promise<{ csrf: string; requestKey: string }> {
  const html = (await buyer.get('/dashboard?tab=orders')).text;
  const key = new RegExp(`action="/dashboard/orders/${orderId}/cancel"[\\s\\S]*?name="requestKey" value="([^"]+)"`).exec(html)?.[1];
  expect(key, 'the order has a cancel form').toBeTruthy();
  return { csrf: formToken(html), requestKey: key! };
}

const cancel = (buyer: Buyer, orderId: number, body: Record<string, string>) =>
  postForm(buyer.agent, `/dashboard/orders/${orderId}/cancel`, body);

async function stateOf(orderId: number, paymentIntentId: string, bookId: number) {
  const order = await shop.db('orders').where({ id: orderId }).first();
  return {
    status: order.status as string,
    refundedCents: toCents(order.refundedAmount),
    providerRefunds: (await shop.db('sandboxRefunds').where({ paymentIntentId })).map((r) => Number(r.amountCents)),
    refunds: await shop.db('refunds').where({ orderId }),
    cancelEntries: await shop.db('auditLog').where({ orderId, action: 'canceled' }),
    copies: await copiesOf(shop, bookId),
  };
}

const PREORDERED = 'Pre-ordered: we will send it as soon as it is out on March 2, 2027.';

describe("a paid pre-order's story", () => {
  it('names the day it ships on the confirmation page, the dashboard and the API, following the title’s date as it stands', async () => {
    const { buyer, orderId } = await placePaidPreorder(shop, { bookId: 3, quantity: 2 });

    const page = (await buyer.get(`/order-confirmation?orderId=${orderId}`)).text;
    expect(page).toContain('<h1>Pre-order Confirmed!</h1>');
    expect(page).toContain(PREORDERED);
    expect(page).toContain('>Pre-ordered</span>');
    expect(page).not.toContain('ship within 1-2 business days');

    const entry = await dashboardEntry(buyer, orderId);
    expect(entry).toContain('Pre-order Confirmed!');
    expect(entry).toContain(PREORDERED);
    expect(entry).toContain('>Pre-ordered</span>');
    expect(entry).toContain('Pre-order &middot; out March 2, 2027');
    expect(entry).toContain('<summary>Cancel pre-order</summary>');

    const api = (await buyer.get(`/api/orders/${orderId}`)).body as { status: string; shipsOn: string; items: Array<{ outOn: string }> };
    expect(api).toMatchObject({ status: 'preordered', shipsOn: '2027-03-02' });
    expect(api.items[0]!.outOn).toBe('2027-03-02');

    // The operator moves the date: every place tells the new day, none stored it.
    await shop.db('books').where({ id: 3 }).update({ publishedOn: '2027-04-06' });
    const moved = 'Pre-ordered: we will send it as soon as it is out on April 6, 2027.';
    expect((await buyer.get(`/order-confirmation?orderId=${orderId}`)).text).toContain(moved);
    expect(await dashboardEntry(buyer, orderId)).toContain('Pre-order &middot; out April 6, 2027');
    expect((await buyer.get(`/api/orders/${orderId}`)).body.shipsOn).toBe('2027-04-06');
  });

  it('waits for its latest title: an order with two pre-ordered titles ships on the later date', async () => {
    const { buyer, orderId } = await placePaidPreorder(shop, { bookId: 4, quantity: 1, publishedOn: '2027-01-12' });
    await shop.db('books').where({ id: 5 }).update({ publishedOn: '2027-05-04', takesPreorders: true });
    await shop.db('orderItems').insert({ orderId, bookId: 5, title: 'A later title', quantity: 1, price: '9.99', preorder: true });
    expect((await buyer.get(`/api/orders/${orderId}`)).body.shipsOn).toBe('2027-05-04');
    const entry = await dashboardEntry(buyer, orderId);
    expect(entry).toContain('Pre-ordered: we will send it as soon as it is out on May 4, 2027.');
    expect(entry).toContain('Pre-order &middot; out January 12, 2027');
    expect(entry).toContain('Pre-order &middot; out May 4, 2027');
  });

  it('is told of an ordinary paid order by none of it', async () => {
    const { buyer, orderId } = await placePaidPreorder(shop, { bookId: 6, quantity: 1 });
    await shop.db('orders').where({ id: orderId }).update({ status: 'succeeded' });
    const entry = await dashboardEntry(buyer, orderId);
    expect(entry).toContain('Order Confirmed!');
    expect(entry).not.toContain('Pre-order');
    expect((await buyer.get(`/api/orders/${orderId}`)).body.shipsOn).toBeNull();
  });
});

describe('the parent cancels a pre-order from the dashboard', () => {
  it('refunds it in full at once, gives the copies back, emails the parent and shows on the operator’s timeline', async () => {
    const BOOK = 7;
    const before = await copiesOf(shop, BOOK);
    const { buyer, orderId, paymentIntentId, total } = await placePaidPreorder(shop, { bookId: BOOK, quantity: 3 });
    const totalCents = toCents(total);
    expect(await copiesOf(shop, BOOK)).toEqual({ inStock: before.inStock, preordered: before.preordered + 3 });
    const version = await readCatalogueVersion(shop.db);

    const form = await cancelForm(buyer, orderId);
    expect(await dashboardEntry(buyer, orderId)).toContain(`Yes, cancel and refund ${formatUsd(totalCents)}`);
    const res = await cancel(buyer, orderId, { _csrf: form.csrf, requestKey: form.requestKey });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    expect(res.headers.location).toBe('/dashboard?tab=orders');

    const after = await stateOf(orderId, paymentIntentId, BOOK);
    expect(after.status).toBe('canceled');
    expect(after.refundedCents).toBe(totalCents);
    expect(after.providerRefunds).toEqual([totalCents]);
    // The promised copies go back to the pre-order count; the shelf never gave any.
    expect(after.copies).toEqual(before);
    expect(await readCatalogueVersion(shop.db)).toBeGreaterThan(version);
    expect(after.cancelEntries).toHaveLength(1);
    const buyerRow = await shop.db('users').where({ email: buyer.parent.email }).first();
    expect(after.cancelEntries[0].actorId).toBe(buyerRow.id);

    const told = `Order #${orderId} was canceled and ${formatUsd(totalCents)} was refunded to your card.`;
    const dashboard = (await buyer.get('/dashboard?tab=orders')).text;
    expect(dashboard).toContain(`Pre-order #${orderId} canceled`);
    const entry = await dashboardEntry(buyer, orderId);
    expect(entry).toContain(told);
    expect(entry).not.toContain('Cancel pre-order');

    await flushMail(shop);
    const mail = sink.received.find((m) => m.rcptTo.includes(buyer.parent.email) && m.raw.includes('canceled and refunded'));
    expect(mail, 'the cancel email reached the parent').toBeTruthy();
    expect(mail!.raw).toContain(`Subject: Your order #${orderId} was canceled and refunded`);
    expect(mail!.raw).toContain(told);

    const { agent } = await operatorBrowser(shop);
    const adminPage = (await agent.get(`/admin/orders/${orderId}`)).text;
    expect(adminPage).toContain(`Pre-order canceled by the parent, refunded ${formatUsd(totalCents)}`);
    expect(adminPage).toContain('Pre-ordered copies given back');
    expect(adminPage).toContain(`${buyer.parent.firstName} ${buyer.parent.lastName}`);
  });

  it('refunds once on a double click (the same form sent twice at once)', async () => {
    const BOOK = 8;
    const before = await copiesOf(shop, BOOK);
    const { buyer, orderId, paymentIntentId, total } = await placePaidPreorder(shop, { bookId: BOOK, quantity: 2 });
    const form = await cancelForm(buyer, orderId);
    const answers = await Promise.all([1, 2].map(() => cancel(buyer, orderId, { _csrf: form.csrf, requestKey: form.requestKey })));
    for (const answer of answers) expect([303, 409], answer.text.slice(0, 300)).toContain(answer.status);
    const after = await stateOf(orderId, paymentIntentId, BOOK);
    expect(after.status).toBe('canceled');
    expect(after.providerRefunds).toEqual([toCents(total)]);
    expect(after.refunds).toHaveLength(1);
    expect(after.cancelEntries).toHaveLength(1);
    expect(after.copies).toEqual(before);
    expect(await shop.db('outbox').where({ orderId }).where('subject', 'like', '%canceled and refunded%')).toHaveLength(1);
  });

  for (const [status, message] of [
    ['succeeded', 'This order has already been packed for shipping, so it can no longer be canceled here. Please contact us.'],
    ['shipped', 'This order has already shipped, so it can no longer be canceled here. Please contact us.'],
    ['canceled', 'This order has already been canceled.'],
  ] as const) {
    it(`refuses an order that is ${status} now, beside the button, changing nothing`, async () => {
      const BOOK = 9;
      const { buyer, orderId, paymentIntentId } = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
      const form = await cancelForm(buyer, orderId);
      // Released to To pack, shipped or canceled while the dashboard was open.
      await shop.db('orders').where({ id: orderId }).update({ status });
      const before = await stateOf(orderId, paymentIntentId, BOOK);
      const res = await cancel(buyer, orderId, { _csrf: form.csrf, requestKey: form.requestKey });
      expect(res.status).toBe(409);
      expect(res.text).toContain('The pre-order was not canceled');
      expect(res.text).toContain(message.replace(/'/g, '&#39;'));
      // Told inside that order's open cancel form.
      expect(res.text).toMatch(new RegExp(`<details class="breakdown preorder-cancel" open>[\\s\\S]*?/dashboard/orders/${orderId}/cancel`));
      expect(await stateOf(orderId, paymentIntentId, BOOK)).toEqual(before);
    });
  }

  it("answers another parent's order with 404, changing nothing", async () => {
    const BOOK = 10;
    const mine = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    const theirs = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    const form = await cancelForm(mine.buyer, mine.orderId);
    const before = await stateOf(theirs.orderId, theirs.paymentIntentId, BOOK);
    const res = await cancel(mine.buyer, theirs.orderId, { _csrf: form.csrf, requestKey: form.requestKey });
    expect(res.status).toBe(404);
    expect(await stateOf(theirs.orderId, theirs.paymentIntentId, BOOK)).toEqual(before);
  });

  it('refuses a form without its one-time key (400), changing nothing', async () => {
    const BOOK = 11;
    const { buyer, orderId, paymentIntentId } = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    const { csrf } = await cancelForm(buyer, orderId);
    const before = await stateOf(orderId, paymentIntentId, BOOK);
    const res = await cancel(buyer, orderId, { _csrf: csrf });
    expect(res.status).toBe(400);
    expect(res.text).toContain('This form has expired. Please reload the page and try again.');
    expect(await stateOf(orderId, paymentIntentId, BOOK)).toEqual(before);
  });
});
