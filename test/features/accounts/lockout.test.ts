import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { ApiBrowser, newParent, type Parent } from '../../helpers/accounts.ts';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

let shop: TestShop;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: smtp.url, TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await shop.close();
  await smtp.close();
});

// Each test signs in from its own address, so the per-address throttle stays out of the way
// except where it is the subject.
let address = 0;
function browserFrom(ip = `10.0.0.${++address}`) {
  const b = new ApiBrowser(shop.browser());
  const send = b.send.bind(b);
  b.send = (method, path, body) => {
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
  expect((await browserFrom().signUp(parent)).status).toBe(201);
  await flushMail(shop);
  return parent;
}

function mailTo(email: string) {
  return smtp.received.filter((m) => m.rcptTo.includes(email));
}

function temporaryPasswordIn(raw: string): string {
  const match =
    /temporary password[^A-Za-z0-9]*?:?\s*([A-HJ-NP-Za-km-z2-9]{12})\b/i.exec(raw) ??
    /\b([A-HJ-NP-Za-km-z2-9]{12})\b/.exec(raw.split('\r\n\r\n').slice(1).join('\n'));
  if (!match?.[1]) throw new Error('no temporary password in the message');
  return match[1];
}

describe('lockout after failed sign-ins', () => {
  it('secures the account on the fifth failure in a row, not before, and mails a temporary password', async () => {
    const parent = await registered();
    const b = browserFrom();
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await b.signIn(parent.email, `wrong-${attempt}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid email or password' });
    }
    const fifth = await b.signIn(parent.email, 'wrong-5');
    expect(fifth.status).toBe(401);
    expect(fifth.body).toEqual({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });

    await flushMail(shop);
    const mails = mailTo(parent.email).filter((m) => m.raw.includes('Subject: We secured your account after failed sign-ins'));
    expect(mails).toHaveLength(1);
    const temporary = temporaryPasswordIn(mails[0]!.raw);

    // The old password no longer works: the password was reset.
    expect((await browserFrom().signIn(parent.email, parent.password)).status).toBe(401);

    // The temporary password works once and asks for a new password.
    const withTemporary = browserFrom();
    const signedIn = await withTemporary.signIn(parent.email, temporary);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.redirectUrl).toBe('/change-password');
    expect((await browserFrom().signIn(parent.email, temporary)).status).toBe(401);

    const page = await withTemporary.get('/dashboard');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/change-password');

    const changed = await withTemporary.send('put', '/api/auth/password', { newPassword: 'a-fresh-start-7' });
    expect(changed.status).toBe(200);
    expect((await browserFrom().signIn(parent.email, 'a-fresh-start-7')).status).toBe(200);
  });

  it('a success in between resets the count', async () => {
    const parent = await registered();
    const b = browserFrom();
    for (let i = 0; i < 4; i++) await b.signIn(parent.email, 'wrong');
    expect((await b.signIn(parent.email, parent.password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await browserFrom().signIn(parent.email, 'wrong')).body.message).toBe('Invalid email or password');
  });

  it('mails at most one temporary password per account per 30 minutes', async () => {
    const parent = await registered();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) await browserFrom().signIn(parent.email, 'wrong');
    }
    await flushMail(shop);
    expect(mailTo(parent.email).filter((m) => m.raw.includes('Subject: We secured your account after failed sign-ins'))).toHaveLength(1);
  });

  it('answers an unknown email exactly like a known one, and mails nothing', async () => {
    const email = 'nobody-here@example.com';
    let last: supertest.Response | undefined;
    for (let i = 0; i < 5; i++) last = await browserFrom().signIn(email, 'wrong');
    expect(last!.body).toEqual({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });
    await flushMail(shop);
    expect(mailTo(email)).toHaveLength(0);
  });

  it('throttles one address that fails across many accounts (429), without locking those accounts', async () => {
    const ip = '10.9.9.9';
    const victims = await Promise.all([registered(), registered(), registered(), registered(), registered()]);
    let refused = 0;
    for (let i = 0; i < 25; i++) {
      const res = await browserFrom(ip).signIn(victims[i % 5]!.email, 'wrong');
      if (res.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect((await browserFrom(ip).signIn(victims[0].email, victims[0].password)).status).toBe(429);
    // From elsewhere the parents still sign in with their own passwords.
    for (const v of victims) expect((await browserFrom().signIn(v.email, v.password)).status).toBe(200);
  });
});

describe('password reset by link', () => {
  function resetLinkIn(raw: string): string {
    const match = /(http:\/\/localhost:\d+\/reset-password\/[A-Za-z0-9_-]+)/.exec(raw);
    if (!match?.[1]) throw new Error('no reset link in the message');
    return match[1];
  }

  it('mails a single-use link that sets a new password', async () => {
    const parent = await registered();
    const res = await browserFrom().send('post', '/api/auth/reset-password', { email: parent.email });
    expect(res.status).toBe(200);
    await flushMail(shop);
    const mail = mailTo(parent.email).find((m) => m.raw.includes('Subject: Reset your Little Lantern Books password'));
    expect(mail).toBeDefined();
    expect(mail!.raw).not.toContain(parent.password);
    const path = new URL(resetLinkIn(mail!.raw)).pathname;

    const b = new ApiBrowser(shop.browser());
    const form = await b.get(path).expect(200);
    expect(form.text).toContain('Choose a new password');
    const done = await b.agent
      .post(path)
      .type('form')
      .send({
        _csrf: /name="_csrf" value="([^"]*)"/.exec(form.text)![1],
        newPassword: 'moonlit-path-3',
        confirmPassword: 'moonlit-path-3',
      });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/dashboard');
    expect((await browserFrom().signIn(parent.email, 'moonlit-path-3')).status).toBe(200);

    const again = await shop.browser().get(path);
    expect(again.status).toBe(400);
    expect(again.text).toContain('This reset link has expired or was already used.');
  });

  it('sends a second reset email within 30 minutes to nobody, and answers the same', async () => {
    const parent = await registered();
    const first = await browserFrom().send('post', '/api/auth/reset-password', { email: parent.email });
    const second = await browserFrom().send('post', '/api/auth/reset-password', { email: parent.email });
    const unknown = await browserFrom().send('post', '/api/auth/reset-password', { email: 'ghost@example.com' });
    expect(second.body).toEqual(first.body);
    expect(unknown.body).toEqual(first.body);
    await flushMail(shop);
    expect(mailTo(parent.email).filter((m) => m.raw.includes('Subject: Reset your'))).toHaveLength(1);
    expect(mailTo('ghost@example.com')).toHaveLength(0);
  });

  it('refuses an expired link', async () => {
    const parent = await registered();
    await browserFrom().send('post', '/api/auth/reset-password', { email: parent.email });
    await flushMail(shop);
    const path = new URL(resetLinkIn(mailTo(parent.email).at(-1)!.raw)).pathname;
    await shop
      .db('accountTokens')
      .where({ purpose: 'reset-link' })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    expect((await shop.browser().get(path)).status).toBe(400);
  });

  it("requires an email ('Please enter your email address')", async () => {
    const res = await browserFrom().send('post', '/api/auth/reset-password', {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Please enter your email address' });
  });
});
