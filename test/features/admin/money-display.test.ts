import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { insertOrder, textOf } from '../../helpers/admin-fixtures.ts';
import { operatorBrowser } from '../../helpers/operator.ts';

// The back office writes money as parents see it: grouped thousands, two decimals.

let shop: TestShop;
let agent: supertest.Agent;
let userId: number;

beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
  userId = (await shop.db('users').first('id')).id as number;
});
afterAll(async () => {
  await shop.close();
});

describe('money in the back office', () => {
  it('groups thousands on the orders list, the order page and the books list', async () => {
    const orderId = await insertOrder(shop.db, {
      userId,
      total: '2104.99',
      amounts: { subtotal: '2099.00', shipping: '0.00', handling: '2.50', tax: '3.49' },
      lines: [{ title: 'A Very Long Print Run', quantity: 1, price: '2099.00' }],
    });
    await shop.db('books').where({ id: 1 }).update({ price: '1250.00' });

    expect(textOf((await agent.get('/admin/orders').expect(200)).text)).toContain('$2,104.99');
    const order = textOf((await agent.get(`/admin/orders/${orderId}`).expect(200)).text);
    expect(order).toContain('$2,099.00');
    expect(order).toContain('$2,104.99');
    expect(textOf((await agent.get('/admin/books').expect(200)).text)).toContain('$1,250.00');
  });

  it("shows each line's total beside its quantity and price on the order page", async () => {
    const orderId = await insertOrder(shop.db, {
      userId,
      total: '45.47',
      amounts: { subtotal: '38.48', shipping: '4.99', handling: '2.50', tax: '0.00' },
      lines: [
        { title: 'Three Little Owls', quantity: 3, price: '7.99' },
        { title: 'One Big Bear', quantity: 1, price: '14.51' },
      ],
    });
    const html = (await agent.get(`/admin/orders/${orderId}`).expect(200)).text;
    const rows = [...html.matchAll(/<tr><td>([^<]+)<\/td><td>(\d+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g)].map((m) => m.slice(2));
    expect(rows).toEqual([
      ['3', '$7.99', '$23.97'],
      ['1', '$14.51', '$14.51'],
    ]);
  });
});
