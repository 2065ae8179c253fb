import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent, type Parent } from '../../helpers/accounts.ts';
import { buildTestShop, csrfTokenFor, flushMail, formToken, type TestShop } from '../../helpers/app.ts';

// A password change, a reset link or the lockout ends every other session of the account
// (a stolen cookie stops working); the session that changed the password goes on.
const sessionPrefix = `test:${process.pid}:${Date.now()}:`;
let shop: TestShop;
let otherProcess: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false, sessionPrefix, env: { TRUST_PROXY: '1' } });
  // A second shop process on the same database and session store.
  otherProcess = await buildTestShop({
    seed: false,
    sessionPrefix,
    database: { ...shop.database, drop: async () => {} },
    env: { TRUST_PROXY: '1' },
  });
});
afterAll(async () => {
  await otherProcess.close();
  await shop.close();
});

let address = 0;
function browser(): ApiBrowser {
  const b = new ApiBrowser(shop.browser());
  const ip = `100.64.0.${++address}`;
  const send = b.send.bind(b);
  b.send = async (method, path, body) => {
    const original = b.agent[method].bind(b.agent);
    b.agent[method] = (url: string) => original(url).set('x-forwarded-for', ip);
    return send(method, path, body).finally(() => {
      b.agent[method] = original;
    });
  };
  return b;
}

async function registered(): Promise<Parent> {
  const parent = newParent();
  expect((await browser().signUp(parent)).status).toBe(201);
  return parent;
}

async function signedIn(parent: Parent, password = parent.password): Promise<ApiBrowser> {
  const b = browser();
  expect((await b.signIn(parent.email, password)).status).toBe(200);
  return b;
}

async function stillSignedIn(b: ApiBrowser): Promise<boolean> {
  const res = await b.get('/api/auth/user');
  return res.status === 200;
}

describe('sessions end when the password changes', () => {
  it('through the dashboard form: other sessions are signed out, the one that changed it stays', async () => {
    const parent = await registered();
    const [phone, laptop] = [await signedIn(parent), await signedIn(parent)];
    const page = await laptop.get('/dashboard?tab=settings').expect(200);
    const changed = await laptop.agent
      .post('/dashboard/password')
      .type('form')
      .send({
        _csrf: formToken(page.text),
        currentPassword: parent.password,
        newPassword: 'lantern-light-9',
        confirmPassword: 'lantern-light-9',
      });
    expect(changed.status).toBe(303);

    expect(await stillSignedIn(laptop)).toBe(true);
    expect(await stillSignedIn(phone)).toBe(false);
    // The ended session's pages treat it as a visitor.
    const dashboard = await phone.get('/dashboard');
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.location).toMatch(/^\/login/);
  });

  it('through the JSON API: other sessions are signed out, the one that changed it stays', async () => {
    const parent = await registered();
    const [phone, laptop] = [await signedIn(parent), await signedIn(parent)];
    const res = await laptop.send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: 'lantern-light-9' });
    expect(res.status).toBe(200);
    expect(await stillSignedIn(laptop)).toBe(true);
    expect(await stillSignedIn(phone)).toBe(false);
    // A stale session cannot act either: its next change is refused.
    expect((await phone.send('put', '/api/auth/profile', { firstName: 'Eve', lastName: 'X' })).status).toBeGreaterThanOrEqual(400);
    expect((await shop.db('users').where({ email: parent.email }).first()).firstName).toBe(parent.firstName);
  });

  it('through a reset link: every session from before is signed out, the one that used the link is signed in', async () => {
    const parent = await registered();
    const old = await signedIn(parent);
    expect((await browser().send('post', '/api/auth/reset-password', { email: parent.email })).status).toBe(200);
    await flushMail(shop);
    const mail = await shop.db('outbox').where({ toAddress: parent.email, subject: 'Reset your Little Lantern Books password' }).first();
    const path = new URL(/(http:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+)/.exec(mail.textBody)![1]!).pathname;

    const fresh = browser();
    const form = await fresh.get(path).expect(200);
    const done = await fresh.agent
      .post(path)
      .type('form')
      .send({ _csrf: formToken(form.text), newPassword: 'moonlit-path-3', confirmPassword: 'moonlit-path-3' });
    expect(done.status).toBe(303);
    expect(await stillSignedIn(fresh)).toBe(true);
    expect(await stillSignedIn(old)).toBe(false);
  });

  it('when the lockout secures the account, and the forced change after the temporary password keeps its own session', async () => {
    const parent = await registered();
    const old = await signedIn(parent);
    for (let i = 0; i < 5; i++) await browser().signIn(parent.email, `wrong-${i}`);
    expect(await stillSignedIn(old)).toBe(false);

    await flushMail(shop);
    const mail = await shop
      .db('outbox')
      .where({ toAddress: parent.email, subject: 'We secured your account after failed sign-ins' })
      .first();
    const temporary = /\b([A-HJ-NP-Za-km-z2-9]{12})\b/.exec(mail.textBody)![1]!;
    const parentNow = await signedIn(parent, temporary);
    const form = await parentNow.get('/change-password').expect(200);
    const changed = await parentNow.agent
      .post('/change-password')
      .type('form')
      .send({ _csrf: formToken(form.text), newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' });
    expect(changed.status).toBe(303);
    expect(changed.headers.location).toBe('/dashboard');
    expect(await stillSignedIn(parentNow)).toBe(true);
    expect((await parentNow.get('/dashboard')).status).toBe(200);
  });

  it('in every process: a session used on another process ends when the password changes on this one', async () => {
    const parent = await registered();
    const elsewhere = otherProcess.browser();
    const token = await csrfTokenFor(elsewhere);
    expect(
      (await elsewhere.post('/api/auth/login').set('x-csrf-token', token).send({ email: parent.email, password: parent.password })).status,
    ).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(200);

    const here = await signedIn(parent);
    expect(
      (await here.send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: 'lantern-light-9' })).status,
    ).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect(await stillSignedIn(here)).toBe(true);
  });

  it('signing in again after a change works as usual', async () => {
    const parent = await registered();
    const laptop = await signedIn(parent);
    await laptop.send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: 'lantern-light-9' });
    const again = await signedIn(parent, 'lantern-light-9');
    expect(await stillSignedIn(again)).toBe(true);
  });
});
