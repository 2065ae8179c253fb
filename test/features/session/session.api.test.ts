import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('GET /api/session', () => {
  it('answers a visitor without a session: not authenticated, no session id, no token, and stores nothing', async () => {
    const res = await shop.browser().get('/api/session').expect(200);
    expect(res.body).toEqual({ isAuthenticated: false, sessionId: null, userId: null, csrfToken: null });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers a visitor whose first change made the session: an opaque session id and a CSRF token', async () => {
    const agent = shop.browser();
    const made = await agent.post('/api/validate-address').set('sec-fetch-site', 'same-origin').send(ADDRESS).expect(200);
    const res = await agent.get('/api/session').expect(200);
    expect(res.body).toEqual({
      isAuthenticated: false,
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: null,
      csrfToken: expect.any(String),
    });
    const cookie = String(made.headers['set-cookie']);
    expect(decodeURIComponent(/shop\.sid=([^;]+)/.exec(cookie)![1]!)).not.toContain(res.body.sessionId);
  });

  it('keeps the same session id across requests of one browser', async () => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    const first = await agent.get('/api/session');
    const second = await agent.get('/api/session');
    expect(second.body.sessionId).toBe(first.body.sessionId);
    expect(second.body.csrfToken).toBe(token);
  });

  it('survives a restart of the app on the same store', async () => {
    const agent = shop.browser();
    const made = await agent.post('/api/validate-address').set('sec-fetch-site', 'same-origin').send(ADDRESS).expect(200);
    const cookie = String(made.headers['set-cookie']).split(';')[0]!;
    const before = await agent.get('/api/session').expect(200);

    shop = await shop.restart();
    const after = await shop.browser().get('/api/session').set('cookie', cookie).expect(200);
    expect(after.body.sessionId).toBe(before.body.sessionId);
    expect(after.body.csrfToken).toBe(before.body.csrfToken);
  });
});

const ADDRESS = { address: '1 Main Street', city: 'Springfield', zipCode: '62701' };
