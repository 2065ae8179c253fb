import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { ApiBrowser } from '../../../helpers/accounts.ts';
import type { Buyer } from '../../../helpers/checkout.ts';
import { placePaidOrder } from '../../../helpers/orders.ts';
import { createOperator, operatorBrowser, signInWithPassword } from '../../../helpers/operator.ts';

// Who reaches the publisher's side: every admin page and API against a visitor, a customer,
// an operator who has given only the password, and an operator past the second factor.

/** Every admin page. `:order` and `:message` are replaced by a real order's and message's id. */
const ADMIN_PAGES = [
  '/admin',
  '/admin/orders',
  '/admin/orders/:order',
  '/admin/orders/:order/packing-slip',
  '/admin/to-pack',
  '/admin/inbox',
  '/admin/no-such-page',
];
/** A path below /admin that no router answers: guarded like the rest, then a 404 even for an operator. */
const UNKNOWN_PAGE = '/admin/no-such-page';
const ADMIN_APIS = ['/api/system-status'];
/** Every form an operator posts. */
const ADMIN_ACTIONS = [
  '/admin/orders/:order/ship',
  '/admin/orders/:order/delivered',
  '/admin/orders/:order/cancel',
  '/admin/orders/:order/refund',
  '/admin/orders/:order/refunds/1/resume',
  '/admin/inbox/:message/read',
  '/admin/inbox/:message/unread',
  '/admin/two-factor',
  '/admin/two-factor/enrol',
];

let shop: TestShop;
let ids: { order: number; message: number };
let customer: Buyer;
beforeAll(async () => {
  shop = await buildTestShop();
  // A paid order and a contact message, so the paths name things that exist.
  const placed = await placePaidOrder(shop);
  customer = placed.buyer;
  const contact = await new ApiBrowser(shop.browser()).send('post', '/api/contact', {
    firstName: 'Amara',
    lastName: 'Osei',
    email: 'amara@example.com',
    currentMember: 'no',
    subject: 'URGENT: wrong book',
    description: 'The parcel had the wrong book in it.',
  });
  expect(contact.status, JSON.stringify(contact.body)).toBeLessThan(300);
  const message = await shop.db('contact_messages').first('id');
  ids = { order: placed.orderId, message: Number(message.id) };
});
afterAll(async () => {
  await shop.close();
});

const real = (path: string) => path.replace(':order', String(ids.order)).replace(':message', String(ids.message));

/** Everything an admin action could change. */
async function snapshot(): Promise<string> {
  const tables = [
    'orders',
    'order_items',
    'books',
    'refunds',
    'audit_log',
    'contact_messages',
    'users',
    'recovery_codes',
    'outbox',
    'sandbox_refunds',
  ];
  const rows = await Promise.all(tables.map((t) => shop.db(t).select().orderBy('id')));
  return JSON.stringify(rows);
}

async function preTotpOperator(): Promise<supertest.Agent> {
  const agent = shop.browser();
  expect((await signInWithPassword(agent, await createOperator(shop.db))).headers.location).toBe('/admin/two-factor');
  return agent;
}

describe('admin pages', () => {
  it.each(ADMIN_PAGES)('%s: a visitor is sent to sign in', async (page) => {
    const res = await shop.browser().get(real(page));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login');
  });

  it.each(ADMIN_PAGES)('%s: a customer gets Page Not Found', async (page) => {
    const res = await customer.agent.get(real(page));
    expect(res.status).toBe(404);
    expect(res.text).toContain('Page Not Found');
  });

  it.each(ADMIN_PAGES)('%s: an operator before the second factor is sent to it', async (page) => {
    const res = await (await preTotpOperator()).get(real(page));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/two-factor');
  });

  it.each(ADMIN_PAGES)('%s: an operator past the second factor is let through', async (page) => {
    const { agent } = await operatorBrowser(shop);
    const res = await agent.get(real(page));
    expect(res.status).toBe(page === UNKNOWN_PAGE ? 404 : 200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('admin APIs', () => {
  it.each(ADMIN_APIS)('%s: a 404 in JSON to a visitor and a customer', async (api) => {
    for (const agent of [shop.browser(), customer.agent]) {
      const res = await agent.get(api);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
  });

  it.each(ADMIN_APIS)('%s: an operator before the second factor is told to finish signing in (401)', async (api) => {
    const res = await (await preTotpOperator()).get(api);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.body).toEqual({ message: expect.stringContaining('code'), redirectUrl: '/admin/two-factor' });
  });

  it.each(ADMIN_APIS)('%s: answers an operator past the second factor', async (api) => {
    const { agent } = await operatorBrowser(shop);
    await agent.get(api).expect(200);
  });
});

describe('admin actions', () => {
  it.each(ADMIN_ACTIONS)('%s: a customer posting gets a 404 and nothing changes', async (action) => {
    const before = await snapshot();
    const res = await customer.send('post', real(action), {
      carrier: 'USPS',
      trackingNumber: '9400100000000000000000',
      amount: '5.00',
      code: '123456',
    });
    expect(res.status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it.each(ADMIN_ACTIONS.filter((a) => !a.startsWith('/admin/two-factor')))(
    '%s: an operator before the second factor is sent to it and nothing changes',
    async (action) => {
      const agent = await preTotpOperator();
      const api = new ApiBrowser(agent);
      const before = await snapshot();
      const res = await api.send('post', real(action), { carrier: 'USPS', trackingNumber: '9400100000000000000000', amount: '5.00' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/admin/two-factor');
      expect(await snapshot()).toBe(before);
    },
  );
});
