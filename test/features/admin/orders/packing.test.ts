import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { insertCustomer, insertOrder, textOf } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';

let shop: TestShop;
let agent: supertest.Agent;
let older: number;
let newer: number;
let shipped: number;
let canceled: number;

beforeAll(async () => {
  shop = await buildTestShop();
  const june = await insertCustomer(shop.db, { firstName: 'June', lastName: 'Park' });
  const leo = await insertCustomer(shop.db, { firstName: 'Leo', lastName: 'Grant' });
  newer = await insertOrder(shop.db, {
    userId: june.id,
    createdAt: new Date('2026-11-20T09:00:00Z'),
    total: '38.97',
    lines: [
      { title: 'Owl Goes to Sea', quantity: 2 },
      { title: 'The Lantern in the Wood', quantity: 1 },
    ],
    address: { shippingAddress: '12 Maple Lane', city: 'Portland', state: 'OR', zipCode: '97201' },
  });
  older = await insertOrder(shop.db, {
    userId: leo.id,
    createdAt: new Date('2026-11-18T09:00:00Z'),
    lines: [{ title: 'Moon Soup', quantity: 1 }],
    address: { shippingAddress: '9 Harbor Road', city: 'Salem', state: null, zipCode: '97301' },
  });
  shipped = await insertOrder(shop.db, { userId: leo.id, status: 'shipped', createdAt: new Date('2026-11-10T09:00:00Z') });
  canceled = await insertOrder(shop.db, { userId: leo.id, status: 'canceled', createdAt: new Date('2026-11-11T09:00:00Z') });
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

describe('GET /admin/to-pack', () => {
  it('lists paid, unshipped orders oldest first, with a count in the heading', async () => {
    const res = await agent.get('/admin/to-pack').expect(200);
    expect(res.text).toMatch(/<h1>To pack \(2\)<\/h1>/);
    const listed = [...res.text.matchAll(/<h2>Order #(\d+)/g)].map((m) => Number(m[1]));
    expect(listed).toEqual([older, newer]);
    expect(listed).not.toContain(shipped);
    expect(listed).not.toContain(canceled);
  });

  it('shows each order with its lines, its address and links to its slip and its page', async () => {
    const res = await agent.get('/admin/to-pack').expect(200);
    const text = textOf(res.text);
    expect(text).toContain('2 × Owl Goes to Sea');
    expect(text).toContain('1 × The Lantern in the Wood');
    expect(text).toContain('June Park 12 Maple Lane Portland, OR 97201');
    expect(text).toContain('Leo Grant 9 Harbor Road Salem 97301');
    expect(res.text).toContain(`href="/admin/orders/${newer}/packing-slip"`);
    expect(res.text).toContain(`href="/admin/orders/${newer}"`);
  });

  it('says when there is nothing to pack', async () => {
    const empty = await buildTestShop();
    try {
      const { agent: operator } = await operatorBrowser(empty);
      const res = await operator.get('/admin/to-pack').expect(200);
      expect(res.text).toMatch(/<h1>To pack \(0\)<\/h1>/);
      expect(textOf(res.text)).toContain('Nothing to pack');
    } finally {
      await empty.close();
    }
  });
});

describe('GET /admin/orders/:id/packing-slip', () => {
  it('prints the order number, date, ship-to address and lines, without prices', async () => {
    const res = await agent.get(`/admin/orders/${newer}/packing-slip`).expect(200);
    const text = textOf(res.text);
    expect(text).toContain(`Packing slip: order #${newer}`);
    expect(text).toContain('Ordered November 20, 2026');
    expect(text).toContain('June Park 12 Maple Lane Portland, OR 97201');
    expect(res.text).toMatch(/<td>Owl Goes to Sea<\/td><td>2<\/td>/);
    expect(res.text).toMatch(/<td>The Lantern in the Wood<\/td><td>1<\/td>/);
    expect(text).toContain('Thank you');
    expect(text).not.toContain('$');
    expect(res.text).toContain('src="/images/logo.svg" alt="Little Lantern Books"');
  });

  it('offers a Print button and says how to print without it', async () => {
    const res = await agent.get(`/admin/orders/${older}/packing-slip`).expect(200);
    expect(res.text).toContain('<button type="button" data-print hidden>Print</button>');
    expect(textOf(res.text)).toContain("use your browser's Print");
  });

  it.each(['999999', 'abc', '0', '-1', '1e3', '99999999999999'])('answers 404 for order %s', async (id) => {
    const res = await agent.get(`/admin/orders/${id}/packing-slip`).expect(404);
    expect(res.text).toContain('Page Not Found');
  });
});
