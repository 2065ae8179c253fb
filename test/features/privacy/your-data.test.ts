import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, formToken, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { csvRows } from '../../helpers/csv-exports.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { cellsMentioning, householdWithEverything, type Household } from '../../helpers/privacy.ts';
import { smtpUrl, startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

// A parent's rights over their data, from their own dashboard: everything the shop holds about
// them in one file, and their account deleted with the person gone and the sales kept. On
// SQLite, and on MariaDB when DATABASE_URL is set.

let smtp: SmtpSink;
let shop: TestShop;
let wren: Household;
let other: Household;

beforeAll(async () => {
  smtp = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: smtpUrl(smtp.port) } });
  wren = await householdWithEverything(shop, {
    names: {
      firstName: 'Wrenna',
      lastName: 'Quillfeather',
      street: '17 Larkspur Lane',
      city: 'Portland',
      recipient: 'Pipkin Quillfeather',
    },
    slot: 0,
  });
  other = await householdWithEverything(shop, {
    names: { firstName: 'Otterly', lastName: 'Brambleworth', street: '88 Thistle Court', city: 'Salem', recipient: 'Moss Brambleworth' },
    slot: 1,
  });
  await flushMail(shop);
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await smtp?.close();
});

/** Posts a dashboard form the way the browser does: its page's token, then the fields. */
async function postForm(agent: supertest.Agent, path: string, fields: Record<string, string>) {
  const page = await agent.get(path).expect(200);
  return agent
    .post(path)
    .type('form')
    .send({ _csrf: formToken(page.text), ...fields });
}

describe('Download my data', () => {
  it('is one JSON file with every kind of record the shop keeps about the parent, after the password', async () => {
    const res = await postForm(wren.buyer.agent, '/dashboard/my-data', { password: wren.parent.password });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?little-lantern-books-data-\d{4}-\d{2}-\d{2}\.json"?$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = JSON.parse(res.text);

    expect(data.account).toMatchObject({ email: wren.parent.email, firstName: 'Wrenna', lastName: 'Quillfeather' });
    expect(data.savedAddress).toEqual({ address: '17 Larkspur Lane', city: 'Portland', zipCode: '97205' });
    expect(data.orders).toHaveLength(1);
    const [order] = data.orders;
    expect(order).toMatchObject({
      number: wren.orderId,
      status: 'Delivered',
      shipTo: { address: '17 Larkspur Lane', city: 'Portland', zipCode: '97205' },
      gift: { recipient: 'Pipkin Quillfeather', note: wren.giftNote },
      delivery: { carrier: 'USPS', trackingNumber: '9400100000000000000000' },
      payment: { refunded: '2.00' },
    });
    expect(order.books).toEqual([expect.objectContaining({ quantity: 1 })]);
    expect(order.payment.reference).toMatch(/^pi_/);
    expect(order.refunds).toEqual([expect.objectContaining({ amount: '2.00', status: 'succeeded' })]);
    expect(data.cart).toEqual([expect.objectContaining({ quantity: 2 })]);
    expect(data.contactMessages).toEqual([
      expect.objectContaining({ subject: wren.contactSubject, email: wren.parent.email.toUpperCase() }),
    ]);
    expect(data.backInStockRequests).toEqual([{ book: wren.waitingFor, email: wren.parent.email }]);
    expect(data.signIn.securityEmails).toEqual([expect.objectContaining({ kind: 'password reset link' })]);
    expect(data.signIn.history).toContain('no record of when or where you signed in');
    expect(data.consents.backInStock).toEqual([wren.waitingFor]);
  });

  it('holds nothing of another parent, and no secret', async () => {
    const res = await postForm(wren.buyer.agent, '/dashboard/my-data', { password: wren.parent.password });
    const text = res.text.toLowerCase();
    for (const theirs of [other.parent.email, 'otterly', 'brambleworth', '88 thistle court', other.waitingFor, other.contactSubject])
      expect(text).not.toContain(theirs.toLowerCase());
    const user = await shop.db('users').where({ email: wren.parent.email }).first();
    expect(text).not.toContain(String(user.passwordHash).toLowerCase());
    expect(text).not.toContain('argon2');
    expect(text).not.toContain(String(user.paymentCustomerId).toLowerCase());
    for (const { tokenHash } of await shop.db('accountTokens').where({ userId: user.id }))
      expect(text).not.toContain(String(tokenHash).toLowerCase());
  });

  it('is refused with a wrong or missing password, and says so beside the field', async () => {
    const wrong = await postForm(wren.buyer.agent, '/dashboard/my-data', { password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.headers['content-disposition']).toBeUndefined();
    expect(wrong.text).toContain('That password is not right');
    const missing = await postForm(wren.buyer.agent, '/dashboard/my-data', { password: '' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Please enter your password');
  });

  it('is for a signed-in parent only', async () => {
    const res = await shop.browser().get('/dashboard/my-data');
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/login/);
  });
});

describe('ending every session of an account', () => {
  it('deletes each session signed in to it from the store, and no other', async () => {
    const [first, second, someoneElse] = [new Buyer(shop), new Buyer(shop), new Buyer(shop)];
    expect((await first.signIn(other.parent.email, other.parent.password)).status).toBe(200);
    expect((await second.signIn(other.parent.email, other.parent.password)).status).toBe(200);
    expect((await someoneElse.signUp(someoneElse.parent)).status).toBe(201);
    const id = Number((await shop.db('users').where({ email: other.parent.email }).first('id')).id);
    // The household's own browser is signed in too.
    expect(await shop.sessions.endSessionsOf(id)).toBe(3);
    expect((await first.get('/api/auth/user')).status).toBe(401);
    expect((await second.get('/api/auth/user')).status).toBe(401);
    expect((await someoneElse.get('/api/auth/user')).status).toBe(200);
    expect((await other.buyer.signIn(other.parent.email, other.parent.password)).status).toBe(200);
  });
});

describe('Delete my account', () => {
  it('is refused while an order has not shipped, and nothing changes', async () => {
    await shop.db('orders').where({ id: wren.orderId }).update({ status: 'succeeded' });
    try {
      const res = await postForm(wren.buyer.agent, '/dashboard/delete-account', { password: wren.parent.password, confirm: 'yes' });
      expect(res.status).toBe(409);
      expect(res.text).toContain('You have an order that has not shipped yet');
      expect(await shop.db('users').where({ email: wren.parent.email }).first()).toBeDefined();
    } finally {
      await shop.db('orders').where({ id: wren.orderId }).update({ status: 'delivered' });
    }
  });

  it('is refused without the box ticked or with a wrong password', async () => {
    const unticked = await postForm(wren.buyer.agent, '/dashboard/delete-account', { password: wren.parent.password });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain('Please tick the box to confirm you want your account deleted');
    const wrong = await postForm(wren.buyer.agent, '/dashboard/delete-account', { password: 'not-my-password', confirm: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That password is not right');
    expect(await shop.db('users').where({ email: wren.parent.email }).first()).toBeDefined();
  });

  describe('once confirmed', () => {
    let otherDevice: Buyer;
    let operator: supertest.Agent;
    let wrenId: number;
    beforeAll(async () => {
      wrenId = Number((await shop.db('users').where({ email: wren.parent.email }).first('id')).id);
      otherDevice = new Buyer(shop);
      expect((await otherDevice.signIn(wren.parent.email, wren.parent.password)).status).toBe(200);
      operator = (await operatorBrowser(shop)).agent;
      const res = await postForm(wren.buyer.agent, '/dashboard/delete-account', { password: wren.parent.password, confirm: 'yes' });
      expect([res.status, res.headers.location]).toEqual([303, '/account-deleted']);
      await flushMail(shop);
    });

    it('says what happened, and the parent is signed out everywhere and cannot sign in again', async () => {
      const page = await wren.buyer.agent.get('/account-deleted').expect(200);
      expect(page.text).toContain('Your account has been deleted');
      expect((await wren.buyer.agent.get('/dashboard')).status).toBe(303);
      expect((await otherDevice.get('/api/auth/user')).status).toBe(401);
      expect((await new Buyer(shop).signIn(wren.parent.email, wren.parent.password)).status).toBe(401);
      // Gone from the session store, not only refused at their next request.
      expect(await shop.sessions.endSessionsOf(wrenId)).toBe(0);
    });

    it('keeps the order for tax without the person: the books, amounts, date, state and ZIP', async () => {
      const order = await shop.db('orders').where({ id: wren.orderId }).first();
      expect(order).toMatchObject({ userId: null, shippingAddress: '', city: '', giftNote: null, giftRecipient: null, zipCode: '97205' });
      expect(order.state).toBeTruthy();
      expect(Number(order.totalAmount)).toBeGreaterThan(0);
      expect(await shop.db('orderItems').where({ orderId: wren.orderId })).toHaveLength(1);
      const today = new Date().toISOString().slice(0, 10);
      const orders = csvRows((await operator.get(`/admin/exports/orders.csv?from=${today}&to=${today}`).expect(200)).text);
      const row = orders.find((r) => r.order === String(wren.orderId));
      expect(row).toBeDefined();
      expect(JSON.stringify(row).toLowerCase()).not.toContain('quillfeather');
      const list = await operator.get(`/admin/orders?search=%23${wren.orderId}`).expect(200);
      expect(list.text).toContain('Deleted account');
    });

    it('leaves no cell in any table with the parent’s email, name, street or gift words, and the other parent untouched', async () => {
      const found = await cellsMentioning(shop, [wren.parent.email, 'Wrenna', 'Quillfeather', '17 Larkspur Lane', 'Pipkin']);
      expect(found).toEqual([]);
      expect(await cellsMentioning(shop, [other.parent.email, 'Brambleworth'])).not.toEqual([]);
      expect(await shop.db('orders').where({ id: other.orderId }).first()).toMatchObject({ shippingAddress: '88 Thistle Court' });
    });

    it('records the erasure in the audit log without the person', async () => {
      const entry = await shop.db('auditLog').where({ action: 'account.erased' }).orderBy('id', 'desc').first();
      expect(entry).toBeDefined();
      expect(JSON.parse(entry.afterJson)).toMatchObject({ ordersKept: [wren.orderId], askedBy: 'the parent, from their dashboard' });
      expect(entry.afterJson.toLowerCase()).not.toContain('quillfeather');
    });

    it('sends a last email to the address, and keeps no copy of it', async () => {
      const goodbye = smtp.received.filter(
        (mail) =>
          mail.rcptTo.includes(wren.parent.email) && mail.raw.includes('Subject: Your Little Lantern Books account has been deleted'),
      );
      expect(goodbye).toHaveLength(1);
      expect(goodbye[0]!.raw).toContain('We keep your order for tax and accounting');
    });
  });
});
