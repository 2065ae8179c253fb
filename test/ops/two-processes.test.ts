// Several shop processes on one database and one session store (WEB_CONCURRENCY, or several
// machines): nothing a visitor did on one may be unknown to another. On MariaDB (the shop's own
// throwaway server when DATABASE_URL is unset: SQLite takes one process), with the sessions in
// Redis when REDIS_URL is set and in the database otherwise.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Buyer, CARDS } from '../helpers/checkout.ts';
import { Visitor } from '../helpers/cross-server-visitor.ts';
import { newParent } from '../helpers/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startProductionServer, type ProductionServer } from '../helpers/production-server.ts';
import { mariadbServer, type ServiceProcess } from '../helpers/service-process.ts';

let mariadb: ServiceProcess | undefined;
let database: TestDatabase | undefined;
let databaseUrl: string;
const shops: ProductionServer[] = [];

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase();
    databaseUrl = database.databaseUrl!;
  } else {
    mariadb = await mariadbServer();
    databaseUrl = mariadb.url;
  }
}, 60_000);
afterAll(async () => {
  for (const shop of shops) await shop.cleanUp();
  await database?.drop();
  await mariadb?.remove();
});

function sharedEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { DATABASE_URL: databaseUrl, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}), ...extra };
}

async function start(extra: Record<string, string> = {}): Promise<ProductionServer> {
  const shop = await startProductionServer(sharedEnv(extra));
  shops.push(shop);
  return shop;
}

describe('two shop processes on one database and session store', () => {
  let a: ProductionServer;
  let b: ProductionServer;
  beforeAll(async () => {
    // One after the other: the first migrates and seeds, as the first of several workers does.
    a = await start();
    b = await start();
  }, 120_000);

  it('a sign-in on one is valid on the other', async () => {
    const visitor = new Visitor();
    const parent = newParent();
    expect((await visitor.json(a.baseUrl, 'POST', '/api/auth/signup', parent)).status).toBe(201);
    const onB = await visitor.json(b.baseUrl, 'GET', '/api/auth/user');
    expect(onB.status).toBe(200);
    expect(JSON.stringify(onB.body)).toContain(parent.email);
    // And back again: a change made through B is seen by A.
    expect((await visitor.json(b.baseUrl, 'POST', '/api/auth/logout')).status).toBeLessThan(300);
    expect((await visitor.json(a.baseUrl, 'GET', '/api/auth/user')).status).toBe(401);
  });

  it('a cart filled on one is seen on the other', async () => {
    const visitor = new Visitor();
    expect((await visitor.json(a.baseUrl, 'POST', '/api/cart', { bookId: 1, quantity: 2 })).status).toBe(201);
    const cart = await visitor.json(b.baseUrl, 'GET', '/api/cart');
    expect(cart.status).toBe(200);
    expect(JSON.stringify(cart.body)).toMatch(/"bookId":1\b/);
    expect(JSON.stringify(cart.body)).toMatch(/"quantity":2\b/);
  });

  it('a purchase on one shows its stock change on the other’s next page', async () => {
    const books = (await new Visitor().json(b.baseUrl, 'GET', '/api/books')).body;
    const list = (Array.isArray(books) ? books : books.books) as { id: number; inStock: number }[];
    const last = list.find((book) => book.inStock === 1)!;
    expect(last).toBeDefined();
    // B has shown the page before, so nothing it keeps may hide the change.
    expect(await (await fetch(`${b.baseUrl}/books/${last.id}`)).text()).toContain('Only 1 left');

    const buyer = new Buyer({ browser: () => supertest.agent(a.baseUrl) });
    await buyer.add(last.id, 1);
    const { stripeCustomerId } = await buyer.createAccount();
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);
    expect((await buyer.confirm(CARDS.success)).status).toBe('succeeded');
    expect((await buyer.complete()).status).toBeLessThan(300);

    const page = await (await fetch(`${b.baseUrl}/books/${last.id}`)).text();
    expect(page).not.toContain('Only 1 left');
    expect(page).toContain('Coming Soon');
  });
});

function workersOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

async function until(shop: ProductionServer, what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${shop.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const listening = (shop: ProductionServer) => shop.output().split('shop listening').length - 1;

describe('WEB_CONCURRENCY=2', () => {
  let shop: ProductionServer;
  beforeAll(async () => {
    shop = await start({ WEB_CONCURRENCY: '2', LOG_LEVEL: 'info' });
    await until(shop, 'two workers listening', () => listening(shop) === 2);
  }, 120_000);

  it('replaces a worker that dies, after a pause, and says so in the log', async () => {
    const [first, second] = workersOf(shop.pid);
    expect(second).toBeDefined();
    process.kill(first!, 'SIGKILL');
    await until(shop, 'the death noticed', () => shop.output().includes('a worker stopped unexpectedly'));
    // The other worker goes on serving meanwhile.
    expect((await fetch(`${shop.baseUrl}/books`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);
    await until(shop, 'a third worker listening', () => listening(shop) === 3);
    expect(workersOf(shop.pid)).toHaveLength(2);
    expect(workersOf(shop.pid)).not.toContain(first);
    expect(shop.output()).toMatch(
      new RegExp(
        `"worker":${first},"code":null,"signal":"SIGKILL","restartInMs":1000,"msg":"a worker stopped unexpectedly; starting another"`,
      ),
    );
  }, 120_000);

  it('answers the requests in flight in every worker when systemd sends SIGTERM, then exits 0', async () => {
    // Open keep-alive connections, as a reverse proxy keeps them, spread over both workers.
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: shop.port, path, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    expect(new Set(await Promise.all(Array.from({ length: 20 }, () => get('/healthz'))))).toEqual(new Set([200]));
    // One request on each open connection: a further one would need a new connection, refused from now on.
    const pages = Array.from({ length: 20 }, (_, i) => get(i % 2 ? '/books' : '/books/1'));
    shop.terminateGroup();
    expect(new Set(await Promise.all(pages))).toEqual(new Set([200]));
    expect(await shop.exited).toEqual({ code: 0, signal: null });
    agent.destroy();
  }, 60_000);
});
