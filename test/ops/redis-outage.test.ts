// Redis (sessions and throttles) stops, or stops answering, under load: every request that
// needs it answers 503 with Retry-After instead of hanging, and the shop recovers by itself
// when Redis is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, startSession, type TestShop } from '../helpers/app.ts';
import { ask, eventually, unavailableAnswers, underLoad } from '../helpers/outage.ts';
import { redisServer, type ServiceProcess } from '../helpers/service-process.ts';
import { DeadlineExceeded } from '../../src/lib/deadline.ts';
import { createLimits } from '../../src/web/throttle.ts';
import { isServiceUnavailable } from '../../src/web/unavailable.ts';

let redis: ServiceProcess;
let shop: TestShop;
beforeAll(async () => {
  redis = await redisServer();
  shop = await buildTestShop({ env: { REDIS_URL: redis.url } });
});
afterAll(async () => {
  await shop?.close();
  await redis?.remove();
});

// /books with a session is answered in front of the app, from the page kept for visitors
// without one, after its own read of the session.
const PATHS = ['/api/session', '/cart', '/api/cart', '/books'];
const expected = (n: number) => Array.from({ length: n }, () => ({ status: 503, retryAfter: true, body: true }));

async function parents() {
  const agents = [shop.browser(), shop.browser(), shop.browser()];
  for (const agent of agents) {
    await startSession(agent);
    expect((await ask(agent, '/api/session')).status).toBe(200);
  }
  expect((await ask(shop.browser(), '/books')).status).toBe(200);
  return agents;
}

describe('a Redis outage', () => {
  it('answers 503 with Retry-After while Redis is stopped for 10 s under load, then recovers on its own', async () => {
    const agents = await parents();
    await redis.stop();
    const answers = await underLoad(agents, PATHS, 10_000);
    expect(unavailableAnswers(answers)).toEqual(expected(answers.length));

    await redis.start();
    const back = await eventually(agents[0]!, '/api/session', (a) => a.status === 200);
    expect(back.status).toBe(200);
    expect((await ask(agents[1]!, '/cart')).status).toBe(200);
  }, 60_000);

  it('answers 503 with Retry-After while Redis accepts connections but answers nothing', async () => {
    const agents = await parents();
    redis.pause();
    try {
      const answers = await underLoad(agents, PATHS, 4_000);
      expect(unavailableAnswers(answers)).toEqual(expected(answers.length));
    } finally {
      redis.resume();
    }
    const back = await eventually(agents[0]!, '/api/session', (a) => a.status === 200);
    expect(back.status).toBe(200);
  }, 60_000);

  // A sign-in or a mail whose session was read just before Redis fell silent still reaches a
  // throttle: it gives up at its deadline, an outage like any other, instead of waiting for Redis.
  it('gives a throttle up at its deadline while Redis accepts commands but answers nothing', async () => {
    const limiter = createLimits({ db: shop.db, redis: shop.sessions.redis, deadlineMs: 300 })('outage', {
      points: 5,
      windowMs: 60_000,
    });
    expect((await limiter.reserve('parent@example.com')).allowed).toBe(true);
    redis.pause();
    try {
      for (const attempt of [limiter.reserve('parent@example.com'), limiter.giveBack('parent@example.com'), limiter.clear('x')]) {
        const err = await attempt.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DeadlineExceeded);
        expect(isServiceUnavailable(err)).toBe(true);
      }
    } finally {
      redis.resume();
    }
    await eventually(shop.browser(), '/api/session', (a) => a.status === 200);
    expect((await limiter.reserve('parent@example.com')).used).toBe(2);
  }, 30_000);
});
