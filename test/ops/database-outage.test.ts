// MariaDB stops for 10 s under load: requests that need it answer 503 with Retry-After
// instead of a 500 or a long wait, and the shop recovers by itself when MariaDB is back.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, startSession, type TestShop } from '../helpers/app.ts';
import { ask, eventually, unavailableAnswers, underLoad } from '../helpers/outage.ts';
import { mariadbServer, type ServiceProcess } from '../helpers/service-process.ts';

let mariadb: ServiceProcess;
let shop: TestShop;
beforeAll(async () => {
  mariadb = await mariadbServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'));
  // Sessions in the same database (even on CI's Redis run), so every request with a session needs it.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    shop = await buildTestShop({ database: { databaseUrl: mariadb.url, dataDir, drop: async () => {} } });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await mariadb?.remove();
});

describe('a database outage', () => {
  it('answers 503 with Retry-After while MariaDB is stopped for 10 s under load, then recovers on its own', async () => {
    const agents = [shop.browser(), shop.browser(), shop.browser()];
    for (const agent of agents) {
      await startSession(agent);
      expect((await ask(agent, '/api/session')).status).toBe(200);
    }
    const paths = ['/api/books', '/books', '/api/session', '/books/1'];
    for (const p of paths) expect((await ask(agents[0]!, p)).status).toBe(200);

    await mariadb.stop();
    const answers = await underLoad(agents, paths, 10_000);
    expect(unavailableAnswers(answers)).toEqual(answers.map(() => ({ status: 503, retryAfter: true, body: true })));

    await mariadb.start();
    expect((await eventually(agents[0]!, '/api/books', (a) => a.status === 200)).status).toBe(200);
    expect((await ask(agents[1]!, '/books')).status).toBe(200);
    expect((await ask(agents[2]!, '/api/session')).status).toBe(200);
  }, 90_000);
});
