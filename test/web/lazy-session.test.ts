import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { buildTestShop, formToken, type TestShop } from '../helpers/app.ts';

// A page read without the session cookie stores no session and sends no cookie, unless the
// page needs one (a form's token, /api/session).
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

  it('a page with a form makes the session its token needs, and the token works', async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact').expect(200);
    expect(made()).toBe(1);
    expect(String(page.headers['set-cookie'])).toContain('shop.sid=');
    await agent
      .post('/contact')
      .type('form')
      .send({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        currentMember: 'no',
        subject: 'Hello',
        description: 'A question.',
        _csrf: formToken(page.text),
      })
      .expect(303);
  });

  it('GET /api/session makes the session the islands use', async () => {
    const res = await shop.browser().get('/api/session').expect(200);
    expect(res.body.csrfToken).toEqual(expect.any(String));
    expect(String(res.headers['set-cookie'])).toContain('shop.sid=');
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
