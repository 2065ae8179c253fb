import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { toCents } from '../../../../src/lib/money.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { orderForm, placePaidOrder, postForm } from '../../../helpers/orders.ts';
import { fieldProblem, summaryForms, summaryOf, toastsOf, valueOf } from '../../../helpers/refusals.ts';

// The order page's forms: a refused action comes back in its own form, the problem summed up
// at the top of that form and told beside its field, what was typed still there and no error
// toast; a done action goes back to the order with a toast that names it and what happened.
let shop: TestShop;

beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(async () => {
  await shop.close();
});

async function paidOrder() {
  const { orderId } = await placePaidOrder(shop);
  const { agent } = await operatorBrowser(shop);
  const total = toCents((await shop.db('orders').where({ id: orderId }).first()).totalAmount);
  return { orderId, agent, total, form: await orderForm(agent, orderId) };
}

/** Follows a 303 to the page it names, as a browser does. */
async function follow(agent: supertest.Agent, res: supertest.Response): Promise<string> {
  expect(res.status, res.text.slice(0, 300)).toBe(303);
  return (await agent.get(res.headers.location!).expect(200)).text;
}

describe('a refused action on the order page', () => {
  it('shipping without a tracking number: the ship form again, the message beside the field, the rest as typed', async () => {
    const { orderId, agent, form } = await paidOrder();
    const res = await postForm(agent, `/admin/orders/${orderId}/ship`, {
      _csrf: form.csrf,
      carrier: 'USPS',
      trackingNumber: '  ',
      estimatedDelivery: '2026-12-03',
    });
    expect(res.status).toBe(400);
    expect(summaryForms(res.text)).toEqual(['ship']);
    expect(summaryOf(res.text, 'ship')).toEqual({
      title: 'The order was not marked as shipped',
      items: ['Please enter the tracking number.'],
      links: ['#trackingNumber'],
    });
    expect(fieldProblem(res.text, 'trackingNumber')).toMatchObject({ invalid: true, message: 'Please enter the tracking number.' });
    expect(fieldProblem(res.text, 'carrier').invalid).toBe(false);
    expect(res.text).toMatch(/<option value="USPS" selected>USPS<\/option>/);
    expect(valueOf(res.text, 'estimatedDelivery')).toBe('2026-12-03');
    expect(toastsOf(res.text)).toEqual([]);
    expect((await shop.db('orders').where({ id: orderId }).first()).status).toBe('succeeded');
  });

  it('reports every problem of the ship form at once, in the order of its fields', async () => {
    const { orderId, agent, form } = await paidOrder();
    const res = await postForm(agent, `/admin/orders/${orderId}/ship`, {
      _csrf: form.csrf,
      carrier: 'Pigeon',
      trackingNumber: '',
      estimatedDelivery: '2026-02-31',
    });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text, 'ship')!.links).toEqual(['#carrier', '#trackingNumber', '#estimatedDelivery']);
    for (const id of ['carrier', 'trackingNumber', 'estimatedDelivery']) expect(fieldProblem(res.text, id).invalid, id).toBe(true);
  });

  it('refunding more than is left: the refund form again, the limit beside the amount, amount and reason kept', async () => {
    const { orderId, agent, form, total } = await paidOrder();
    const tooMuch = ((total + 1) / 100).toFixed(2);
    const res = await postForm(agent, `/admin/orders/${orderId}/refund`, {
      _csrf: form.csrf,
      requestKey: form.refundKey,
      amount: tooMuch,
      reason: 'Bent cover',
    });
    expect(res.status).toBe(409);
    const limit = `You can refund at most $${(total / 100).toFixed(2)} on this order.`;
    expect(summaryOf(res.text, 'refund')).toEqual({ title: 'Nothing was refunded', items: [limit], links: ['#amount'] });
    expect(fieldProblem(res.text, 'amount')).toMatchObject({ invalid: true, message: limit });
    expect(fieldProblem(res.text, 'amount').tag).toContain('aria-describedby="amount-hint amount-error"');
    expect(valueOf(res.text, 'amount')).toBe(tooMuch);
    expect(valueOf(res.text, 'reason')).toBe('Bent cover');
    // The other forms are drawn fresh: nothing typed for one shows up in another.
    expect(valueOf(res.text, 'trackingNumber')).toBe('');
    expect(toastsOf(res.text)).toEqual([]);
    expect(await shop.db('refunds').where({ orderId })).toHaveLength(0);
  });

  it('refunding with neither an amount nor a reason names both', async () => {
    const { orderId, agent, form } = await paidOrder();
    const res = await postForm(agent, `/admin/orders/${orderId}/refund`, {
      _csrf: form.csrf,
      requestKey: form.refundKey,
      amount: '',
      reason: '',
    });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text, 'refund')!.links).toEqual(['#amount', '#reason']);
  });

  it('cancelling without ticking the box: the cancel form again, the message beside the box', async () => {
    const { orderId, agent, form } = await paidOrder();
    const res = await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey });
    expect(res.status).toBe(400);
    const message = 'Please tick the box to confirm the cancel and refund.';
    expect(summaryOf(res.text, 'cancel')).toEqual({ title: 'The order was not canceled', items: [message], links: ['#cancel-confirm'] });
    expect(fieldProblem(res.text, 'cancel-confirm')).toMatchObject({ invalid: true, message });
    expect(toastsOf(res.text)).toEqual([]);
    expect((await shop.db('orders').where({ id: orderId }).first()).status).toBe('succeeded');
  });

  it('a form the order no longer offers (shipped in another tab) tells its refusal under the heading', async () => {
    const { orderId, agent, form } = await paidOrder();
    const ship = { _csrf: form.csrf, carrier: 'UPS', trackingNumber: '1Z999', estimatedDelivery: '2026-12-02' };
    await follow(agent, await postForm(agent, `/admin/orders/${orderId}/ship`, ship));
    const again = await postForm(agent, `/admin/orders/${orderId}/ship`, ship);
    expect(again.status).toBe(409);
    expect(summaryOf(again.text, 'ship')).toEqual({
      title: 'The order was not marked as shipped',
      items: ['This order is shipped, so it cannot be marked shipped.'],
      links: [null],
    });
    // Under the page's heading, before the order's cards.
    expect(again.text.indexOf('id="ship-problems"')).toBeLessThan(again.text.indexOf('id="lines-heading"'));
    expect(again.text.indexOf('id="ship-problems"')).toBeGreaterThan(again.text.indexOf('<h1>'));
    expect(toastsOf(again.text)).toEqual([]);
  });
});

describe('the toast after a done action', () => {
  it('names the order and what happened: shipped, refunded, delivered', async () => {
    const { orderId, agent, form } = await paidOrder();
    const shipped = await follow(
      agent,
      await postForm(agent, `/admin/orders/${orderId}/ship`, {
        _csrf: form.csrf,
        carrier: 'USPS',
        trackingNumber: '9400 1000',
        estimatedDelivery: '2026-12-02',
      }),
    );
    expect(toastsOf(shipped)).toEqual([
      { variant: 'success', title: `Order #${orderId} marked as shipped`, text: 'The customer has been emailed the USPS tracking number.' },
    ]);
    expect(summaryForms(shipped)).toEqual([]);

    const next = await orderForm(agent, orderId);
    const refunded = await follow(
      agent,
      await postForm(agent, `/admin/orders/${orderId}/refund`, {
        _csrf: next.csrf,
        requestKey: next.refundKey,
        amount: '2.50',
        reason: 'Bent cover',
      }),
    );
    expect(toastsOf(refunded).map((t) => t.title)).toEqual([`Order #${orderId}: $2.50 refunded`]);

    const delivered = await follow(agent, await postForm(agent, `/admin/orders/${orderId}/delivered`, { _csrf: next.csrf }));
    expect(toastsOf(delivered).map((t) => t.title)).toEqual([`Order #${orderId} marked as delivered`]);
  });

  it('names the order that was canceled and refunded', async () => {
    const { orderId, agent, form } = await paidOrder();
    const canceled = await follow(
      agent,
      await postForm(agent, `/admin/orders/${orderId}/cancel`, { _csrf: form.csrf, requestKey: form.cancelKey, confirm: 'yes' }),
    );
    expect(toastsOf(canceled)).toEqual([
      {
        variant: 'success',
        title: `Order #${orderId} canceled and refunded`,
        text: 'The payment was refunded, the books are back in stock and the customer has been emailed.',
      },
    ]);
  });
});
