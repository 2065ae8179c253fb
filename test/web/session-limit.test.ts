// Sessions cost something only when they hold something: reads (GET /api/session, every page)
// store none, and the changes that do store one are limited per client address, with one count
// shared by every process. Counted where the sessions live: Redis keys under the shop's prefix,
// or the SQL sessions table.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, TEST_LIMITS, type TestShop } from '../helpers/app.ts';
import { NEW_SESSION_MESSAGE } from '../../src/web/session-limit.ts';

const READS = [
  '/api/session',
  '/',
  '/books',
  '/books/1',
  '/about',
  '/contact',
  '/login',
  '/reset-password',
  '/failedlogin',
  '/cart',
  '/checkout',
  '/simple-checkout',
  '/authcheckout',
  '/dashboard',
  '/order-confirmation?orderId=1',
  '/api/books',
  '/api/cart',
  '/api/auth/user',
  '/api/orders',
  '/admin',
  '/no-such-page',
];

async function storedSessions(shop: TestShop, prefix: string): Promise<number> {
  // The throttles' counters share the prefix (`<prefix>throttle:`): only sessions are counted.
  if (shop.sessions.redis)
    return (await shop.sessions.redis.keys(`${prefix}*`)).filter((key) => !key.startsWith(`${prefix}throttle:`)).length;
  const row = (await shop.db('sessions').count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}

describe('reads without the session cookie', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let shop: TestShop;
  beforeAll(async () => {
    shop = await buildTestShop({ sessionPrefix: prefix });
  });
  afterAll(() => shop.close());

  it('store no session, however many: 200 cookie-less GETs of /api/session and the pages, and HEADs', async () => {
    const before = await storedSessions(shop, prefix);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const path = READS[i % READS.length]!;
        const req = i % 10 === 9 ? shop.browser().head(path) : shop.browser().get(path);
        return req.then((res) => ({ path, status: res.status, cookie: res.headers['set-cookie'] }));
      }),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.cookie !== undefined)).toEqual([]);
    expect(await storedSessions(shop, prefix)).toBe(before);
  });

  it('answer /api/session with a null session id and no token', async () => {
    const res = await shop.browser().get('/api/session').expect(200);
    expect(res.body).toMatchObject({ sessionId: null, csrfToken: null, isAuthenticated: false });
  });

  it('a first change stores one session, which the next reads then use without storing another', async () => {
    const before = await storedSessions(shop, prefix);
    const agent = shop.browser();
    await agent.post('/api/cart').send({ bookId: 1 }).expect(201);
    expect(await storedSessions(shop, prefix)).toBe(before + 1);
    const session = (await agent.get('/api/session').expect(200)).body as { sessionId: string; csrfToken: string };
    expect(session.sessionId).toEqual(expect.any(String));
    expect(session.csrfToken).toEqual(expect.any(String));
    for (const path of READS) await agent.get(path);
    expect(await storedSessions(shop, prefix)).toBe(before + 1);
  });
});

describe('new sessions per client address', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const LIMIT = 3;
  const limits = { ...TEST_LIMITS, 'new-session-client': { points: LIMIT, windowMs: 60_000 } };
  let shop: TestShop;
  beforeAll(async () => {
    // Behind one trusted proxy, so each test speaks from an address of its own.
    shop = await buildTestShop({ sessionPrefix: prefix, limits, env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => shop.close());

  let next = 1;
  const newAddress = () => `203.0.113.${next++}`;
  const firstChange = (address: string) => shop.browser().post('/api/cart').set('x-forwarded-for', address).send({ bookId: 1 });

  it('are refused past the limit with a 429 and a readable message, storing nothing; other addresses are unaffected', async () => {
    const crowded = newAddress();
    for (let i = 0; i < LIMIT; i++) expect((await firstChange(crowded)).status).toBe(201);
    const before = await storedSessions(shop, prefix);

    const refused = await firstChange(crowded);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: NEW_SESSION_MESSAGE });
    expect(refused.headers['set-cookie']).toBeUndefined();
    const page = await shop.browser().post('/cart').set('x-forwarded-for', crowded).type('form').send({ bookId: '1', quantity: '1' });
    expect(page.status).toBe(429);
    expect(page.text).toContain('Too many visits have started from your network');
    expect(await storedSessions(shop, prefix)).toBe(before);

    expect((await firstChange(newAddress())).status).toBe(201);
    expect(await storedSessions(shop, prefix)).toBe(before + 1);
  });

  it('count only new sessions: a visitor who has one goes on changing things from a crowded address', async () => {
    const address = newAddress();
    const agent = shop.browser();
    await agent.post('/api/cart').set('x-forwarded-for', address).send({ bookId: 1 }).expect(201);
    for (let i = 1; i < LIMIT; i++) await firstChange(address).expect(201);
    await firstChange(address).expect(429);
    const token = (await agent.get('/api/session').expect(200)).body.csrfToken as string;
    await agent.put('/api/cart/1').set('x-forwarded-for', address).set('x-csrf-token', token).send({ quantity: 3 }).expect(200);
    await agent.delete('/api/cart').set('x-forwarded-for', address).set('x-csrf-token', token).expect(200);
    expect((await agent.get('/api/session').expect(200)).body.csrfToken).toBe(token);
  });

  it('count reads as nothing: a crowded address still reads every page', async () => {
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++) await firstChange(address).expect(201);
    for (const path of ['/api/session', '/books', '/contact']) await shop.browser().get(path).set('x-forwarded-for', address).expect(200);
  });

  it('hold under a burst of parallel first changes: exactly the limit gets through', async () => {
    const address = newAddress();
    const before = await storedSessions(shop, prefix);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => firstChange(address).then((res) => res.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - LIMIT);
    expect(await storedSessions(shop, prefix)).toBe(before + LIMIT);
  });

  it('are counted once for every process: a second app on the same stores shares the count', async () => {
    const other = await buildTestShop({ seed: false, database: shop.database, sessionPrefix: prefix, limits, env: { TRUST_PROXY: '1' } });
    try {
      const address = newAddress();
      const apps = [shop, other];
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++) {
        const res = await apps[i % 2]!.browser().post('/api/cart').set('x-forwarded-for', address).send({ bookId: 1 });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array.from({ length: LIMIT }, () => 201), 429, 429]);
    } finally {
      await other.later.settled();
      await other.mailer.stop();
      await other.sessions.close();
      await other.db.destroy();
    }
  });
});
