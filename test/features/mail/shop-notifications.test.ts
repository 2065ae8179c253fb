import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, flushMail, type TestShop } from '../../helpers/app.ts';
import { setStock, type Buyer } from '../../helpers/checkout.ts';
import { placePaidOrder } from '../../helpers/orders.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

// The publisher hears of each new paid order and each contact message, through the outbox.
const SHOP_ADDRESS = 'orders@littlelanternbooks.example';
const BOOK = 2;

async function placeOrder(shop: TestShop): Promise<{ orderId: number; buyer: Buyer }> {
  await setStock(shop, BOOK, 20);
  return placePaidOrder(shop, { bookId: BOOK, quantity: 2 });
}

async function sendContactMessage(shop: TestShop, subject: string) {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  const body = {
    firstName: 'Maya',
    lastName: 'Lee',
    email: 'maya.lee@example.com',
    currentMember: 'yes',
    subject,
    description: 'Moon Soup arrived twice.\nCan we send one back?',
  };
  await agent.post('/api/contact').set('x-csrf-token', token).send(body).expect(201);
}

describe('with SHOP_NOTIFY_EMAIL set', () => {
  let shop: TestShop;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    shop = await buildTestShop({ env: { SMTP_URL: sink.url, SHOP_NOTIFY_EMAIL: SHOP_ADDRESS, PUBLIC_URL: 'https://shop.example.com' } });
  });
  afterAll(async () => {
    await shop.close();
    await sink.close();
  });

  const toShop = () => sink.received.filter((m) => m.rcptTo.includes(SHOP_ADDRESS));

  it('tells the shop of a new paid order, recorded with the order', async () => {
    const before = toShop().length;
    const { orderId, buyer } = await placeOrder(shop);
    await flushMail(shop);

    const mails = toShop().slice(before);
    expect(mails).toHaveLength(1);
    const raw = mails[0]!.raw;
    const book = await shop.db('books').where({ id: BOOK }).first();
    const order = await shop.db('orders').where({ id: orderId }).first();
    expect(raw).toContain(`New order #${orderId}`);
    expect(raw).toContain(`${buyer.parent.firstName} ${buyer.parent.lastName}`);
    expect(raw).toContain(buyer.parent.email);
    expect(raw).toContain(book.title);
    expect(raw).toContain(`(qty 2, `);
    expect(raw).toMatch(new RegExp(`Total: \\$${Number(order.totalAmount).toFixed(2).replace('.', '\\.')}`));
    expect(raw).toContain('214 Maple Street');
    expect(raw).toContain('Portland');
    expect(raw).toContain(`https://shop.example.com/admin/orders/${orderId}`);

    const row = await shop
      .db('outbox')
      .where({ toAddress: SHOP_ADDRESS, dedupeKey: `shop-new-order:${orderId}` })
      .first();
    expect(Number(row.orderId)).toBe(orderId);
    expect(row.subject).toMatch(new RegExp(`^New order #${orderId}: \\$`));
  });

  it('tells the shop once, however often the order is completed again', async () => {
    const { orderId, buyer } = await placeOrder(shop);
    expect((await buyer.complete()).status).toBe(200);
    await flushMail(shop);
    expect(await shop.db('outbox').where({ toAddress: SHOP_ADDRESS, orderId })).toHaveLength(1);
  });

  it('tells the shop of a contact message, URGENT flagged in the subject line', async () => {
    const before = toShop().length;
    await sendContactMessage(shop, 'urgent: wrong book');
    await flushMail(shop);
    const mails = toShop().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toMatch(/Subject: URGENT: New message from Maya Lee: urgent: wrong/);
    for (const shown of [
      'maya.lee@example.com',
      'Member: Yes',
      'Moon Soup arrived twice.',
      'Can we send one back?',
      'https://shop.example.com/admin/inbox',
    ]) {
      expect(mails[0]!.raw).toContain(shown);
    }
  });

  it('leaves URGENT out of the subject of an ordinary message', async () => {
    await sendContactMessage(shop, 'Which book for a 4-year-old?');
    await flushMail(shop);
    const row = await shop.db('outbox').where({ toAddress: SHOP_ADDRESS }).orderBy('id', 'desc').first();
    expect(row.subject).toBe('New message from Maya Lee: Which book for a 4-year-old?');
  });
});

describe('without SHOP_NOTIFY_EMAIL', () => {
  let shop: TestShop;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    shop = await buildTestShop({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await shop.close();
    await sink.close();
  });

  it('sends the customers their mail and the shop nothing', async () => {
    const { buyer } = await placeOrder(shop);
    await sendContactMessage(shop, 'URGENT: help');
    await flushMail(shop);
    const recipients = sink.received.flatMap((m) => m.rcptTo);
    expect(recipients).toContain(buyer.parent.email);
    expect(recipients).toContain('maya.lee@example.com');
    expect(new Set(recipients)).toEqual(new Set([buyer.parent.email, 'maya.lee@example.com']));
    expect(sink.received.some((m) => /New order #|New message from/.test(m.raw))).toBe(false);
  });
});
