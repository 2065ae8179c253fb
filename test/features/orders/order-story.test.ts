// What a parent is told about an order follows its display status, on the confirmation page,
// the dashboard's order list and the confirmation email alike: a canceled order never
// celebrates, a shipped one says where its parcel is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStory } from '../../../src/features/orders/order-story.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import type { Buyer } from '../../helpers/checkout.ts';
import { placePaidOrder } from '../../helpers/orders.ts';

describe('orderStory', () => {
  it('celebrates a paid order', () => {
    expect(orderStory({ id: 7, status: 'succeeded' })).toEqual({
      heading: 'Order Confirmed!',
      icon: 'check',
      tone: 'green',
      sentences: ['Thank you! Your books will ship within 1-2 business days.'],
    });
  });

  it('tells a shipped order its carrier, tracking number and day', () => {
    const story = orderStory({ id: 7, status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999', estimatedDelivery: '2026-12-03' });
    expect(story).toMatchObject({ heading: 'Your Order Is on Its Way', icon: 'truck', tone: 'blue' });
    expect(story.sentences).toEqual([
      'Good news: order #7 has shipped with UPS. Its tracking number is 1Z999.',
      'It should arrive by December 3, 2026.',
    ]);
  });

  it('says a delivered order arrived', () => {
    expect(orderStory({ id: 7, status: 'delivered' })).toMatchObject({ heading: 'Order Delivered', icon: 'home', tone: 'green' });
  });

  it('says a canceled order was refunded, and how much, with no celebration', () => {
    const story = orderStory({ id: 7, status: 'canceled', refundedAmount: '2099.00' });
    expect(story).toMatchObject({ heading: 'Order Canceled', icon: 'cross', tone: 'red' });
    expect(story.sentences[0]).toBe('Order #7 was canceled and $2,099.00 was refunded to your card.');
    expect(story.sentences.join(' ')).not.toMatch(/ship within|Thank you/);
  });

  it('tells a paid pre-order the day it ships, and that it may be canceled until then', () => {
    const story = orderStory({ id: 7, status: 'preordered', shipsOn: '2027-03-02' });
    expect(story).toMatchObject({ heading: 'Pre-order Confirmed!', icon: 'clock', tone: 'blue' });
    expect(story.sentences[0]).toBe('Pre-ordered: we will send it as soon as it is out on March 2, 2027.');
    expect(story.sentences.join(' ')).toContain('cancel it from your dashboard');
    expect(story.sentences.join(' ')).not.toContain('ship within 1-2 business days');
  });

  it('never calls an order confirmed while its payment is not done', () => {
    for (const status of ['processing', 'requires_action', 'requires_payment_method', 'failed', 'pending']) {
      expect(orderStory({ id: 7, status }).heading, status).not.toBe('Order Confirmed!');
    }
  });
});

describe('the pages an order is told on', () => {
  let shop: TestShop;
  let buyer: Buyer;
  let orderId: number;
  beforeAll(async () => {
    shop = await buildTestShop();
    ({ buyer, orderId } = await placePaidOrder(shop, { quantity: 2 }));
  });
  afterAll(() => shop.close());

  const page = () => buyer.get(`/order-confirmation?orderId=${orderId}`);
  const headingOf = (html: string) => /<h1>([^<]+)<\/h1>/.exec(html)?.[1];
  const dashboardOrder = async () => {
    const html = (await buyer.get('/dashboard?tab=orders')).text;
    return /<li class="order">([\s\S]*?)<\/li>\s*<\/ul>\s*<\/section>/.exec(html)?.[1] ?? html;
  };

  it('a paid order: confirmed, with line totals beside each quantity', async () => {
    const res = await page();
    expect(headingOf(res.text)).toBe('Order Confirmed!');
    expect(res.text).toContain('Thank you! Your books will ship within 1-2 business days.');
    const line = /<ul class="summary-lines">\s*<li>([\s\S]*?)<\/li>/.exec(res.text)?.[1] ?? '';
    const item = await shop.db('order_items').where({ orderId }).first();
    const unit = Number(item.price);
    expect(line).toContain('&times; 2');
    expect(line).toContain(`($${unit.toFixed(2)} each)`);
    expect(line).toContain(`$${(unit * 2).toFixed(2)}`);
    expect(await dashboardOrder()).toContain('Order Confirmed!');
  });

  it('a shipped order: on its way, with its tracking number, on the page and the dashboard', async () => {
    await shop.db('orders').where({ id: orderId }).update({ status: 'shipped', carrier: 'USPS', trackingNumber: '9400100000000000000000' });
    const res = await page();
    expect(headingOf(res.text)).toBe('Your Order Is on Its Way');
    expect(res.text).toContain(`Good news: order #${orderId} has shipped with USPS. Its tracking number is 9400100000000000000000.`);
    expect(res.text).not.toContain('Order Confirmed!');
    expect(res.text).not.toContain('A confirmation email is on its way.');
    expect(await dashboardOrder()).toContain('Your Order Is on Its Way');
  });

  it('a delivered order says so', async () => {
    await shop.db('orders').where({ id: orderId }).update({ status: 'delivered' });
    expect(headingOf((await page()).text)).toBe('Order Delivered');
  });

  it('a canceled order: no green tick, no shipping promise, the amount refunded', async () => {
    await shop.db('orders').where({ id: orderId }).update({ status: 'canceled', refundedAmount: '2099.00' });
    const res = await page();
    expect(headingOf(res.text)).toBe('Order Canceled');
    expect(res.text).toContain('<title>Order Canceled | Little Lantern Books</title>');
    expect(res.text).toContain(`Order #${orderId} was canceled and $2,099.00 was refunded to your card.`);
    expect(res.text).not.toContain('Order Confirmed!');
    expect(res.text).not.toContain('ship within 1-2 business days');
    expect(res.text).not.toContain('#1e6b3a');
    const listed = await dashboardOrder();
    expect(listed).toContain('Order Canceled');
    expect(listed).toContain('$2,099.00 was refunded');
    expect(listed).not.toContain('Order Confirmed!');
  });
});
