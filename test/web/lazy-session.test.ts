import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { buildTestShop, formToken, type TestShop } from '../helpers/app.ts';

// A page read without the session cookie stores no session and sends no cookie, even a page
// with a form or /api/session: the form's first post makes the session.
let shop: TestShop;
let stored: MockInstance;
beforeAll(async () => {
  shop = await buildTestShop();
  stored = vi.spyOn(shop.sessions.store, 'set');
});
afterAll(() => shop.close());
beforeEach(() => {
  stored.mockClear();
});
const made = () => stored.mock.calls.length;
const message = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  currentMember: 'no',
  subject: 'Hello',
  description: 'A question.',
};
const address = { address: '1 Main Street', city: 'Springfield', zipCode: '62701' };

describe('reading pages without the session cookie', () => {
  it.each(['/', '/books', '/books/1', '/about', '/api/books', '/robots.txt'])('GET %s makes no session', async (path) => {
    const res = await shop.browser().get(path).expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(made()).toBe(0);
  });

  it('HEAD /books makes no session', async () => {
    await shop.browser().head('/books').expect(200);
    expect(made()).toBe(0);
  });

  it('a page with a form makes no session; its first post makes one, and the token then works', async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact').expect(200);
    expect(made()).toBe(0);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.text).toContain('name="_csrf" value=""');
    await agent
      .post('/contact')
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send({ ...message, _csrf: '' })
      .expect(303);
    expect(made()).toBe(1);
    const again = await agent.get('/contact').expect(200);
    await agent
      .post('/contact')
      .type('form')
      .send({ ...message, _csrf: formToken(again.text) })
      .expect(303);
  });

  it('GET /api/session makes no session, and gives no token until a first change has made one', async () => {
    const agent = shop.browser();
    const res = await agent.get('/api/session').expect(200);
    expect(res.body.csrfToken).toBeNull();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(made()).toBe(0);
    await agent.post('/api/validate-address').set('sec-fetch-site', 'same-origin').send(address).expect(200);
    expect((await agent.get('/api/session').expect(200)).body.csrfToken).toEqual(expect.any(String));
  });

  it('a signed-in page still sends a visitor without a session to sign in', async () => {
    const res = await shop.browser().get('/dashboard');
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/login/);
  });

  it('a POST without the cookie still makes its session as before', async () => {
    await shop.browser().post('/cart').set('sec-fetch-site', 'same-origin').type('form').send({ bookId: '1', quantity: '1' }).expect(303);
    expect(made()).toBe(1);
  });
});
