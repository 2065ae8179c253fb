import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';
import { insertCustomer, insertOrder } from '../../helpers/admin-fixtures.ts';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';
import { createOperator, signInWithPassword } from '../../helpers/operator.ts';

// The orders list, the to-pack list, packing slips and the inbox exist for operators past the
// second factor only.
let shop: TestShop;
let orderId: number;
let messageId: number;

beforeAll(async () => {
  shop = await buildTestShop();
  const customer = await insertCustomer(shop.db);
  orderId = await insertOrder(shop.db, { userId: customer.id });
  const [id] = await shop.db('contactMessages').insert({ firstName: 'Maya', lastName: 'Lee', email: 'maya@example.com', currentMember: false, subject: 'Hello', description: 'Hi', createdAt: new Date() });
  messageId = Number(id);
});
afterAll(async () => {
  await shop.close();
});

const pages = () => ['/admin/orders', '/admin/orders?status=paid&q=%2342', '/admin/to-pack', `/admin/orders/${orderId}/packing-slip`, '/admin/inbox'];
const actions = () => [`/admin/inbox/${messageId}/read`, `/admin/inbox/${messageId}/unread`];

async function messageState() {
  const row = await shop.db('contactMessages').where({ id: messageId }).first();
  const audits = await shop.db('auditLog').where({ contactMessageId: messageId });
  return { readAt: row.readAt, audits: audits.length };
}

describe('who reaches the lists', () => {
  it('sends a visitor to sign in', async () => {
    for (const path of pages()) {
      const res = await shop.browser().get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/login');
    }
  });

  it('answers 404 to a signed-in customer, and changes nothing', async () => {
    const customer = new ApiBrowser(shop.browser());
    expect((await customer.signUp(newParent())).status).toBe(201);
    for (const path of pages()) expect((await customer.get(path)).status, path).toBe(404);
    const before = await messageState();
    const token = await csrfTokenFor(customer.agent);
    for (const path of actions()) {
      const res = await customer.agent.post(path).type('form').send({ _csrf: token });
      expect(res.status, path).toBe(404);
    }
    expect(await messageState()).toEqual(before);
  });

  it('keeps an operator who has not passed the second factor at that step', async () => {
    const operator = await createOperator(shop.db);
    const agent = shop.browser();
    expect((await signInWithPassword(agent, operator)).status).toBe(303);
    for (const path of pages()) {
      const res = await agent.get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/admin/two-factor');
    }
    const before = await messageState();
    const token = await csrfTokenFor(agent);
    for (const path of actions()) expect((await agent.post(path).type('form').send({ _csrf: token })).headers.location).toBe('/admin/two-factor');
    expect(await messageState()).toEqual(before);
  });
});
