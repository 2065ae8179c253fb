import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SessionData, Store } from 'express-session';
import { buildTestShop, csrfTokenFor, type TestShop } from '../helpers/app.ts';

// A session is written to its store when it changes, or once it is past half its life;
// reading pages with it costs the store nothing.
let shop: TestShop;
let writes: string[];
beforeAll(async () => {
  shop = await buildTestShop();
  countWrites(shop.sessions.store);
});
afterAll(() => shop.close());
beforeEach(() => {
  writes = [];
});

const DAY = 86_400_000;

function countWrites(store: Store) {
  const methods = store as unknown as Record<string, unknown>;
  for (const name of ['set', 'touch']) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = function (this: Store, ...args: unknown[]) {
      writes.push(name);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

function sidOf(setCookie: string[] | string | undefined): string {
  const value = /shop\.sid=([^;]+)/.exec(String(setCookie))?.[1];
  if (!value) throw new Error('no session cookie');
  const signed = decodeURIComponent(value);
  return signed.slice(2, signed.lastIndexOf('.'));
}

function cookieExpiry(setCookie: string[] | string | undefined): number | undefined {
  const expires = /shop\.sid=[^,]*?Expires=([^;]+)/i.exec(String(setCookie))?.[1];
  return expires ? Date.parse(expires) : undefined;
}

const storeGet = (sid: string) =>
  new Promise<SessionData>((resolve, reject) =>
    shop.sessions.store.get(sid, (err?: Error, data?: SessionData | null) =>
      err || !data ? reject(err ?? new Error('no session')) : resolve(data),
    ),
  );
const storeSet = (sid: string, data: SessionData) =>
  new Promise<void>((resolve, reject) => shop.sessions.store.set(sid, data, (err?: Error) => (err ? reject(err) : resolve())));

/** A browser with a stored session (made by its first change), and the session's id. */
async function visitorWithSession() {
  const agent = shop.browser();
  const res = await agent
    .post('/api/validate-address')
    .set('sec-fetch-site', 'same-origin')
    .send({ address: '1 Main Street', city: 'Springfield', zipCode: '62701' })
    .expect(200);
  const sid = sidOf(res.headers['set-cookie']);
  return { agent, sid, token: await csrfTokenFor(agent) };
}

/** Makes the stored session (and so its cookie's recorded expiry) end in `days` days. */
async function ageSession(sid: string, days: number) {
  const data = await storeGet(sid);
  data.cookie.expires = new Date(Date.now() + days * DAY);
  await storeSet(sid, data);
  writes = [];
}

const maxAge = () => shop.config.SESSION_MAX_AGE_DAYS * DAY;

describe('session writes', () => {
  it('reading pages with a session writes nothing and sends no new cookie', async () => {
    const { agent } = await visitorWithSession();
    writes = [];
    for (const path of ['/books', '/books/1']) {
      const res = await agent.get(path).expect(200);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(writes).toEqual([]);
  });

  it('a change is written, with a cookie whose expiry matches the stored one', async () => {
    const { agent, sid, token } = await visitorWithSession();
    writes = [];
    const res = await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 1 }).expect(201);
    expect(writes).toEqual(['set']);
    const stored = await storeGet(sid);
    expect(cookieExpiry(res.headers['set-cookie'])).toBe(Math.floor(new Date(stored.cookie.expires!).getTime() / 1000) * 1000);
  });

  it('a session with more than half its life left is not rewritten', async () => {
    const { agent, sid } = await visitorWithSession();
    await ageSession(sid, shop.config.SESSION_MAX_AGE_DAYS * 0.6);
    const res = await agent.get('/books').expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(writes).toEqual([]);
  });

  it('a session past half its life is extended: store and cookie get a fresh max age, the same expiry', async () => {
    const { agent, sid } = await visitorWithSession();
    await ageSession(sid, shop.config.SESSION_MAX_AGE_DAYS * 0.4);
    const before = Date.now();
    const res = await agent.get('/books').expect(200);
    expect(writes).toEqual(['set']);
    const stored = new Date((await storeGet(sid)).cookie.expires!).getTime();
    expect(stored).toBeGreaterThanOrEqual(before + maxAge());
    expect(cookieExpiry(res.headers['set-cookie'])).toBe(Math.floor(stored / 1000) * 1000);
    // Extended once: the next request finds it young again.
    await agent.get('/books').expect(200);
    expect(writes).toEqual(['set']);
  });

  it('a browser with the cookie keeps its session (and its cart) across reads', async () => {
    const { agent, token } = await visitorWithSession();
    await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId: 2 }).expect(201);
    await agent.get('/books').expect(200);
    expect(await csrfTokenFor(agent)).toBe(token);
    expect((await agent.get('/api/cart').expect(200)).body).toHaveLength(1);
  });
});
