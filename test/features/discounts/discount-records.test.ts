import { csvHeadings, csvRows } from '../../helpers/csv-exports.ts';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS } from '../../helpers/checkout.ts';
import { addCode, priceBook } from '../../helpers/discounts.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { orderForm, postForm } from '../../helpers/orders.ts';

// An order paid with a code, as the operator sees it: the order page, the accountant's CSV
// files, and refunds, which can never give back more than the parent actually paid.
let shop: TestShop;
let agent: supertest.Agent;
let orderId: number;
const CA = { address: '1 Market Street', city: 'San Francisco', zipCode: '94103' };
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
  await priceBook(shop, 3, '26.00');
  await addCode(shop, { code: 'TEN', kind: 'percentage', percent: 10 });
  const buyer = new Buyer(shop);
  expect((await buyer.signUp(buyer.parent)).status).toBeLessThan(300);
  await buyer.add(3, 2);
  expect((await buyer.send('post', '/checkout/discount', { code: 'TEN' })).status).toBe(303);
  expect((await buyer.startPayment({ shippingInfo: CA })).body.amount).toBe(58_39);
  await buyer.confirm(CARDS.success);
  orderId = Number((await buyer.complete()).body.order.id);
});
afterAll(async () => {
  await shop.close();
});

const rowsOf = (res: supertest.Response): Record<string, string>[] => csvRows(res.text);

describe('an order paid with a code, for the operator', () => {
  it('the order page shows the code and what it took off', async () => {
    const page = await agent.get(`/admin/orders/${orderId}`).expect(200);
    expect(page.text).toContain('Discount (TEN)');
    expect(page.text).toContain('-$5.20');
  });

  it('the orders CSV carries the code and the discount in two columns after the refunded amount', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${today}&to=${today}`).expect(200);
    expect(csvHeadings(res.text).slice(14, 17)).toEqual([
      'Order refunded (repeats on each book row)',
      'Order discount code',
      'Order discount (repeats on each book row)',
    ]);
    expect(rowsOf(res).find((r) => Number(r.order) === orderId)).toMatchObject({
      order_subtotal: '52.00',
      order_tax: '4.10',
      order_total: '58.39',
      order_discount_code: 'TEN',
      order_discount: '5.20',
    });
  });

  it('the sales-tax CSV counts the discounted subtotal as the taxable sales', async () => {
    const res = await agent.get(`/admin/exports/sales-tax.csv?from=${today}&to=${today}`).expect(200);
    expect(rowsOf(res).find((r) => r.state === 'CA')).toMatchObject({ taxable_sales: '46.80', tax_collected: '4.10', orders: '1' });
  });

  it('a refund of the undiscounted total is refused: at most what was paid goes back', async () => {
    const form = await orderForm(agent, orderId);
    const tooMuch = await postForm(agent, `/admin/orders/${orderId}/refund`, {
      _csrf: form.csrf,
      requestKey: form.refundKey,
      amount: '63.59',
      reason: 'Price of the books without the code',
    });
    expect(tooMuch.status).toBe(409);
    const next = await orderForm(agent, orderId);
    const all = await postForm(agent, `/admin/orders/${orderId}/refund`, {
      _csrf: next.csrf,
      requestKey: next.refundKey,
      amount: '58.39',
      reason: 'Everything back',
    });
    expect(all.status).toBe(303);
    expect(Number((await shop.db('sandbox_refunds').sum({ n: 'amountCents' }).first())!.n)).toBe(58_39);
  });
});
