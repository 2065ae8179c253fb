import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../helpers/app.ts';
import { createLimits, type Limits } from '../../src/web/throttle.ts';

// The limits on each store the shop may use: the database's rate_limits table (SQLite or
// MariaDB, whichever the suite runs on) always, and Redis when the suite has REDIS_URL.
let shop: TestShop;
const stores: Record<string, Limits> = {};
beforeAll(async () => {
  shop = await buildTestShop({ seed: false });
  stores.database = createLimits({ db: shop.db });
  if (shop.sessions.redis)
    stores.redis = createLimits({ db: shop.db, redis: shop.sessions.redis, prefix: `test:${process.pid}:${Date.now()}:` });
});
afterAll(() => shop.close());

const storeNames = process.env.REDIS_URL ? ['database', 'redis'] : ['database'];

describe.each(storeNames)('limits in the %s', (store) => {
  const limits: Limits = (name, limit) => stores[store]!(name, limit);

  it('let exactly the allowance through when 50 reservations race', async () => {
    const limiter = limits('race', { points: 7, windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.reserve('one-key')));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.used)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('count each key apart, give an attempt back, and start again when cleared', async () => {
    const limiter = limits('keys', { points: 2, windowMs: 60_000 });
    expect((await limiter.reserve('a')).used).toBe(1);
    expect((await limiter.reserve('b')).used).toBe(1);
    expect((await limiter.reserve('a')).allowed).toBe(true);
    expect((await limiter.reserve('a')).allowed).toBe(false);
    await limiter.clear('a');
    expect(await limiter.reserve('a')).toEqual({ allowed: true, used: 1 });
    await limiter.giveBack('a');
    expect((await limiter.reserve('a')).used).toBe(1);
  });

  it('take keys of any length (an email of 254 characters and more)', async () => {
    const limiter = limits('long', { points: 1, windowMs: 60_000 });
    const long = `login-account:${'İ'.repeat(240)}@example.com`;
    expect((await limiter.reserve(long)).allowed).toBe(true);
    expect((await limiter.reserve(long)).allowed).toBe(false);
    expect((await limiter.reserve(`${long}x`)).allowed).toBe(true);
  });

  it('keep limits of different names apart', async () => {
    const first = limits('first', { points: 1, windowMs: 60_000 });
    const second = limits('second', { points: 1, windowMs: 60_000 });
    expect((await first.reserve('k')).allowed).toBe(true);
    expect((await second.reserve('k')).allowed).toBe(true);
  });
});
