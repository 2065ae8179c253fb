import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('GET /api/session', () => {
  it('answers a visitor: not authenticated, an opaque session id, a CSRF token', async () => {
    const res = await shop.browser().get('/api/session').expect(200);
    expect(res.body).toEqual({
      isAuthenticated: false,
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: null,
      csrfToken: expect.any(String),
    });
    const cookieValue = decodeURIComponent(/shop\.sid=([^;]+)/.exec(String(res.headers['set-cookie']))![1]!);
    expect(cookieValue).not.toContain(res.body.sessionId);
  });

  it('keeps the same session id across requests of one browser', async () => {
    const agent = shop.browser();
    const first = await agent.get('/api/session');
    const second = await agent.get('/api/session');
    expect(second.body.sessionId).toBe(first.body.sessionId);
    expect(second.body.csrfToken).toBe(first.body.csrfToken);
  });

  it('survives a restart of the app on the same store', async () => {
    const agent = shop.browser();
    const before = await agent.get('/api/session').expect(200);
    const cookie = String(before.headers['set-cookie']).split(';')[0]!;

    shop = await shop.restart();
    const after = await shop.browser().get('/api/session').set('cookie', cookie).expect(200);
    expect(after.body.sessionId).toBe(before.body.sessionId);
    expect(after.body.csrfToken).toBe(before.body.csrfToken);
  });
});
