import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent } from '../helpers/accounts.ts';
import { buildTestShop, csrfTokenFor, formToken, type TestShop } from '../helpers/app.ts';
import { Buyer, CARDS } from '../helpers/checkout.ts';

// Catalogue pages for a visitor with a session are answered in front of the app from the page
// kept for visitors without one (src/web/session-pages.ts). Whichever answers, the visitor
// must see exactly what the app would show them, at once after every change.
let shop: TestShop;
const sessionPrefix = `test:session-pages:${randomBytes(6).toString('hex')}:`;
beforeAll(async () => {
  shop = await buildTestShop({ sessionPrefix });
});
afterAll(() => shop.close());

const PAGES = ['/', '/books', '/books/1'];
const badge = (html: string) => /data-cart-badge data-count="(\d+)"/.exec(html)?.[1];
const cookieOf = (agent: supertest.Agent) =>
  agent.jar.getCookies({ domain: '127.0.0.1', path: '/', secure: false, script: false }).toValueString();

/** Warms the page for visitors without a session, then reads it as `browser`. */
async function sessionPage(browser: ApiBrowser, path: string): Promise<supertest.Response> {
  await shop.browser().get(path).expect(200);
  return browser.get(path).expect(200);
}

describe('catalogue pages for a visitor with a session', () => {
  it('are the pages the app renders for that session, byte for byte', async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 3, quantity: 2 }).then((res) => expect(res.status).toBe(201));
    const cookie = cookieOf(buyer.agent);
    for (const path of PAGES) {
      // A fresh app has kept no page yet: the app itself renders the first.
      shop = await shop.restart();
      const fromApp = await supertest(shop.app).get(path).set('Cookie', cookie).expect(200);
      await supertest(shop.app).get(path).expect(200);
      const kept = await supertest(shop.app).get(path).set('Cookie', cookie).expect(200);
      expect(kept.text).toBe(fromApp.text);
      expect(badge(kept.text)).toBe('2');
      expect(kept.headers['cache-control']).toBe('private, no-cache');
      for (const header of ['content-type', 'vary', 'cache-control', 'content-security-policy', 'x-frame-options'])
        expect(kept.headers[header], header).toBe(fromApp.headers[header]);
      // Weak, as the app's: the same page, not necessarily the same bytes across encodings.
      expect(kept.headers.etag).toMatch(/^W\/"/);
      expect(kept.headers['set-cookie']).toBeUndefined();
    }
  });

  it('are private to the visitor, like every page the app makes for a session, and no page for a visitor without one is', async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    for (const path of ['/books', '/contact', '/cart']) {
      expect((await sessionPage(buyer, path)).headers['cache-control'], path).toBe('private, no-cache');
      expect((await shop.browser().get(path).expect(200)).headers['cache-control'] ?? '', path).not.toMatch(/private/);
    }
  });

  it('answer a conditional request with 304 when the page has not changed', async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    const first = await sessionPage(buyer, '/books');
    await buyer
      .get('/books')
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
  });

  it("name each visitor's page with its own ETag: a changed badge or another session's token is another page", async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    const before = await sessionPage(buyer, '/books/1');
    await buyer.send('post', '/api/cart', { bookId: 3, quantity: 1 });
    const after = await sessionPage(buyer, '/books/1');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await buyer
      .get('/books/1')
      .set('If-None-Match', before.headers.etag as string)
      .expect(200);

    // Same badge, same page, another session: only the form token differs.
    const other = new ApiBrowser(shop.browser());
    await other.send('post', '/api/cart', { bookId: 3, quantity: 2 });
    const theirs = await sessionPage(other, '/books/1');
    expect(badge(theirs.text)).toBe(badge(after.text));
    expect(formToken(theirs.text)).not.toBe(formToken(after.text));
    expect(theirs.headers.etag).not.toBe(after.headers.etag);
    await other
      .get('/books/1')
      .set('If-None-Match', after.headers.etag as string)
      .expect(200);
  });

  it('show the cart badge as the cart changes, at once', async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    expect(badge((await sessionPage(buyer, '/books')).text)).toBe('1');
    await buyer.send('post', '/api/cart', { bookId: 3, quantity: 2 });
    expect(badge((await sessionPage(buyer, '/books')).text)).toBe('3');
    await buyer.send('delete', '/api/cart/3');
    expect(badge((await sessionPage(buyer, '/')).text)).toBe('1');
  });

  it("carry the session's own form token on a book page", async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    const page = await sessionPage(buyer, '/books/1');
    expect(formToken(page.text)).toBe(await csrfTokenFor(buyer.agent));
    // The form works: a second copy added without JavaScript.
    await buyer.agent
      .post('/cart')
      .type('form')
      .set('sec-fetch-site', 'same-origin')
      .send({ _csrf: formToken(page.text), bookId: '1', quantity: '1' })
      .expect(303);
    expect(badge((await sessionPage(buyer, '/books/1')).text)).toBe('2');
  });

  it('greet a signed-in parent and forget them once signed out', async () => {
    const parent = newParent({ firstName: 'Imogen' });
    const browser = new ApiBrowser(shop.browser());
    await browser.signUp(parent);
    expect((await sessionPage(browser, '/')).text).toContain('Hello, Imogen!');
    await browser.send('post', '/api/auth/logout');
    const after = await sessionPage(browser, '/');
    expect(after.text).not.toContain('Hello, Imogen!');
    expect(after.text).toContain('Parent Login');
  });

  it('do not greet a session that a password change on another device ended', async () => {
    const parent = newParent({ firstName: 'Tobias' });
    const phone = new ApiBrowser(shop.browser());
    await phone.signUp(parent);
    const laptop = new ApiBrowser(shop.browser());
    await laptop.signIn(parent.email, parent.password);
    expect((await sessionPage(laptop, '/books')).text).toContain('Hello, Tobias!');
    await phone
      .send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: 'a-brand-new-story-77' })
      .then((res) => expect(res.status).toBe(200));
    const ended = await sessionPage(laptop, '/books');
    expect(ended.text).not.toContain('Hello, Tobias!');
    expect((await sessionPage(phone, '/books')).text).toContain('Hello, Tobias!');
  });

  it('show a toast once, on the page the change led to', async () => {
    const buyer = new ApiBrowser(shop.browser());
    const token = await csrfTokenFor(buyer.agent);
    await shop.browser().get('/books/1').expect(200);
    await buyer.agent
      .post('/cart')
      .type('form')
      .set('sec-fetch-site', 'same-origin')
      .send({ _csrf: token, bookId: '1', quantity: '1' })
      .expect(303);
    const withToast = await sessionPage(buyer, '/books/1');
    expect(withToast.text).toContain('data-toast>');
    expect((await sessionPage(buyer, '/books/1')).text).not.toContain('data-toast>');
  });

  it('renew a session past half its life, as the app does', async () => {
    const buyer = new ApiBrowser(shop.browser());
    await buyer.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    const sid = decodeURIComponent(/shop\.sid=s%3A([^.;]+)/.exec(cookieOf(buyer.agent))![1]!);
    const store = shop.sessions.store;
    const stored = await new Promise<Record<string, unknown> & { cookie: { expires: string } }>((resolve, reject) =>
      store.get(sid, (err: Error | null, data) => (err ? reject(err) : resolve(data as never))),
    );
    stored.cookie.expires = new Date(Date.now() + 86_400_000).toISOString();
    await new Promise<void>((resolve, reject) => store.set(sid, stored as never, (err?: Error) => (err ? reject(err) : resolve())));
    const page = await sessionPage(buyer, '/books');
    expect(String(page.headers['set-cookie'])).toContain('shop.sid=');
    expect(badge(page.text)).toBe('1');
  });

  it("show a guest's cart merged into the account's at sign-in", async () => {
    const parent = newParent({ firstName: 'Agatha' });
    const browser = new ApiBrowser(shop.browser());
    await browser.signUp(parent);
    await browser.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    await browser.send('post', '/api/auth/logout');
    await browser.refreshToken(); // Signing out ended the session and its token.
    await browser.send('post', '/api/cart', { bookId: 3, quantity: 2 }).then((res) => expect(res.status).toBe(201));
    expect(badge((await sessionPage(browser, '/books')).text)).toBe('2');
    await browser.signIn(parent.email, parent.password).then((res) => expect(res.status).toBe(200));
    const merged = await sessionPage(browser, '/books');
    expect(merged.text).toContain('Hello, Agatha!');
    expect(badge(merged.text)).toBe('3');
  });

  it('greet a parent by the name the account has now', async () => {
    const parent = newParent({ firstName: 'Bartholomew' });
    const browser = new ApiBrowser(shop.browser());
    await browser.signUp(parent);
    expect((await sessionPage(browser, '/')).text).toContain('Hello, Bartholomew!');
    await browser
      .send('put', '/api/auth/profile', { firstName: 'Bart', lastName: parent.lastName })
      .then((res) => expect(res.status).toBe(200));
    expect((await sessionPage(browser, '/')).text).toContain('Hello, Bart!');
  });

  it('show an empty cart once the order is paid', async () => {
    const buyer = new Buyer(shop);
    await buyer.add(1, 2);
    expect(badge((await sessionPage(buyer, '/books/1')).text)).toBe('2');
    const { stripeCustomerId } = await buyer.createAccount();
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);
    await buyer.confirm(CARDS.success);
    expect((await buyer.complete()).status).toBe(200);
    expect(badge((await sessionPage(buyer, '/books/1')).text)).toBe('0');
  });

  it('do not greet a session past its expiry', async () => {
    const parent = newParent({ firstName: 'Cornelius' });
    const browser = new ApiBrowser(shop.browser());
    await browser.signUp(parent);
    expect((await sessionPage(browser, '/')).text).toContain('Hello, Cornelius!');
    const sid = decodeURIComponent(/shop\.sid=s%3A([^.;]+)/.exec(cookieOf(browser.agent))![1]!);
    // Redis forgets an expired session; the SQL store keeps the row until its sweep and must not read it.
    if (shop.sessions.redis) await shop.sessions.redis.del(`${sessionPrefix}${sid}`);
    else
      await shop
        .db('sessions')
        .where({ sid })
        .update({ expired: new Date(Date.now() - 60_000).toISOString() });
    const expired = await sessionPage(browser, '/');
    expect(expired.text).not.toContain('Hello, Cornelius!');
    expect(expired.text).toContain('Parent Login');
  });

  it('ignore a session cookie whose signature does not match', async () => {
    const parent = newParent({ firstName: 'Wilhelmina' });
    const browser = new ApiBrowser(shop.browser());
    await browser.signUp(parent);
    // The genuine cookie is honoured first; its id under another signature still is not.
    expect((await sessionPage(browser, '/')).text).toContain('Hello, Wilhelmina!');
    const sid = /shop\.sid=s%3A([^.;]+)/.exec(cookieOf(browser.agent))![1]!;
    const forged = await supertest(shop.app).get('/').set('Cookie', `shop.sid=s%3A${sid}.forgedsignature`).expect(200);
    expect(forged.text).not.toContain('Hello, Wilhelmina!');
    expect(forged.text).toContain('Parent Login');
  });
});
