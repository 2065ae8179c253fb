import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, formToken, type TestShop } from '../../helpers/app.ts';
import { newParent } from '../../helpers/accounts.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { createOperator, operatorBrowser } from '../../helpers/operator.ts';
import { cellsMentioning, householdWithEverything, type Household } from '../../helpers/privacy.ts';

// The same rights for a parent who writes in instead: the operator finds the account, takes
// the file or erases it, and the audit log says who did. And the password a parent gives again
// is guessed slowly.

let shop: TestShop;
let operator: supertest.Agent;
let operatorId: number;
let parent: Household;

beforeAll(async () => {
  shop = await buildTestShop();
  const signedIn = await operatorBrowser(shop);
  operator = signedIn.agent;
  operatorId = signedIn.operator.id;
  parent = await householdWithEverything(shop, {
    names: { firstName: 'Hazelby', lastName: 'Fernsworth', street: '3 Orchard Row', city: 'Eugene', recipient: 'Sorrel Fernsworth' },
    slot: 0,
  });
  await flushMail(shop);
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

async function accountPage(email: string) {
  return operator.get(`/admin/privacy?email=${encodeURIComponent(email)}`);
}

async function accountIdOf(email: string): Promise<number> {
  return Number((await shop.db('users').where({ email }).first('id')).id);
}

describe('privacy requests in /admin', () => {
  it('finds the account of a parent who writes in, whatever the spelling of the address', async () => {
    const page = await accountPage(parent.parent.email.toUpperCase());
    expect(page.status).toBe(200);
    expect(page.text).toContain('Hazelby Fernsworth');
    expect(page.text).toContain('1 order');
    const none = await accountPage('nobody.here@example.com');
    expect(none.text).toContain('No parent account uses that email address');
    const bad = await accountPage('not an address');
    expect(bad.status).toBe(400);
  });

  it('gives the operator the parent’s file, and writes who took it in the audit log', async () => {
    const id = await accountIdOf(parent.parent.email);
    const page = await accountPage(parent.parent.email);
    const res = await operator
      .post(`/admin/privacy/${id}/export`)
      .type('form')
      .send({ _csrf: formToken(page.text) });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expect(JSON.parse(res.text).account.email).toBe(parent.parent.email);
    const entry = await shop.db('auditLog').where({ action: 'account.exported' }).orderBy('id', 'desc').first();
    expect(entry.actorId).toBe(operatorId);
    expect(JSON.parse(entry.afterJson)).toEqual({ account: id, askedBy: 'the parent, by writing in' });
  });

  it('is for operators only', async () => {
    const visitor = new Buyer(shop);
    await visitor.signUp(visitor.parent);
    expect((await visitor.get('/admin/privacy')).status).toBe(404);
    const id = await accountIdOf(parent.parent.email);
    expect((await visitor.send('post', `/admin/privacy/${id}/export`)).status).toBe(404);
  });

  it('erases only with the address typed again, then as the parent would, with the operator in the audit log', async () => {
    const id = await accountIdOf(parent.parent.email);
    const erase = async (confirmEmail: string) => {
      const page = await accountPage(parent.parent.email);
      return operator
        .post(`/admin/privacy/${id}/erase`)
        .type('form')
        .send({ _csrf: formToken(page.text), email: parent.parent.email, confirmEmail });
    };
    const slip = await erase('someone.else@example.com');
    expect(slip.status).toBe(400);
    expect(slip.text).toContain('Type the account’s email address exactly, to confirm');
    expect(await shop.db('users').where({ id }).first()).toBeDefined();

    const done = await erase(parent.parent.email);
    expect([done.status, done.headers.location]).toEqual([303, '/admin/privacy']);
    expect(await shop.db('users').where({ id }).first()).toBeUndefined();
    const entry = await shop.db('auditLog').where({ action: 'account.erased' }).orderBy('id', 'desc').first();
    expect(entry.actorId).toBe(operatorId);
    expect(JSON.parse(entry.afterJson)).toMatchObject({ account: id, ordersKept: [parent.orderId], askedBy: 'the parent, by writing in' });
    await flushMail(shop);
    expect(await cellsMentioning(shop, [parent.parent.email, 'Hazelby', 'Fernsworth', '3 Orchard Row'])).toEqual([]);
    expect((await parent.buyer.get('/api/auth/user')).status).toBe(401);
  });

  it('refuses to erase an operator account', async () => {
    const colleague = await createOperator(shop.db);
    const page = await accountPage(colleague.email);
    // Operators are not parents: the lookup does not offer them.
    expect(page.text).toContain('No parent account uses that email address');
    const res = await operator
      .post(`/admin/privacy/${colleague.id}/erase`)
      .type('form')
      .send({ _csrf: formToken(page.text), email: colleague.email, confirmEmail: colleague.email });
    expect(res.status).toBe(409);
    expect(await shop.db('users').where({ id: colleague.id }).first()).toBeDefined();
  });
});

describe('the password given again', () => {
  it('is refused after 5 wrong tries in 15 minutes, even with the right one, and nothing is downloaded', async () => {
    const buyer = new Buyer(shop);
    const someone = newParent();
    await buyer.signUp(someone);
    const tryPassword = async (password: string) => {
      const page = await buyer.get('/dashboard/my-data').expect(200);
      return buyer.agent
        .post('/dashboard/my-data')
        .type('form')
        .send({ _csrf: formToken(page.text), password });
    };
    for (let i = 0; i < 5; i++) expect((await tryPassword('wrong-guess')).status).toBe(400);
    const locked = await tryPassword(someone.password);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many wrong passwords. Please wait 15 minutes and try again.');
    expect(locked.headers['content-disposition']).toBeUndefined();
  });
});
