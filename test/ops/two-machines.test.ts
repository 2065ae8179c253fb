// Two machines behind one load balancer: two production server processes, each with its own
// DATA_DIR, sharing one MariaDB, one Redis, one covers bucket (a real S3-protocol server) and
// one Stripe account (the stand-in the real SDK talks to). Whatever a parent or the operator
// did on one machine holds on the other, and a bucket out of reach takes both out of rotation.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import Stripe from 'stripe';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, type Db } from '../../src/db.ts';
import { createLogger } from '../../src/log.ts';
import { newParent } from '../helpers/accounts.ts';
import { formToken } from '../helpers/app.ts';
import { SHIPPING } from '../helpers/checkout.ts';
import { startCoverBucket, type CoverBucket } from '../helpers/cover-bucket.ts';
import { Visitor } from '../helpers/cross-server-visitor.ts';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { createOperator, signInWithPassword, submitTwoFactorCode } from '../helpers/operator.ts';
import { startProductionServer, type ProductionServer } from '../helpers/production-server.ts';
import { mariadbServer, redisServer, type ServiceProcess } from '../helpers/service-process.ts';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';

const WEBHOOK_SECRET = 'whsec_two_machines';
const WIDTHS = [160, 320, 480, 640, 800, 960];

let database: TestDatabase | undefined;
let mariadb: ServiceProcess | undefined;
let redis: ServiceProcess | undefined;
let bucket: CoverBucket;
let stripe: StripeStandIn;
let db: Db;
let a: ProductionServer;
let b: ProductionServer;

beforeAll(async () => {
  // CI's MariaDB + Redis leg brings its own; on the embedded leg the test starts both itself.
  let databaseUrl: string;
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase();
    databaseUrl = database.databaseUrl!;
  } else {
    mariadb = await mariadbServer();
    databaseUrl = mariadb.url;
  }
  if (!process.env.REDIS_URL) redis = await redisServer();
  bucket = await startCoverBucket();
  stripe = await startStripeStandIn();
  // One file's worth of settings, the same on both machines.
  const env = {
    NODE_ENV: 'production',
    WEB_CONCURRENCY: '1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? redis!.url,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_two_machines',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    ...bucket.env,
  };
  // The first migrates and seeds, as the first machine of a new installation does.
  a = await startProductionServer(env);
  b = await startProductionServer(env);
  db = connectDb({ databaseUrl, dataDir: tmpdir(), log: createLogger('silent') });
}, 180_000);

afterAll(async () => {
  await a?.cleanUp();
  await b?.cleanUp();
  await db?.destroy();
  await stripe?.close();
  await bucket?.close();
  await database?.drop();
  await mariadb?.remove();
  await redis?.remove();
});

/** The operator signed in on one machine, past the second factor, through the pages. */
async function operatorOn(server: ProductionServer): Promise<supertest.Agent> {
  const operator = await createOperator(db);
  // A browser on the shop's own pages says so, as the operator's does.
  const agent = supertest.agent(server.baseUrl).set('sec-fetch-site', 'same-origin');
  expect((await signInWithPassword(agent, operator)).status).toBe(303);
  expect((await submitTwoFactorCode(agent, currentCode(operator.totpSecret!))).status).toBe(303);
  return agent;
}

async function bookPage(server: ProductionServer, id: number): Promise<string> {
  const res = await fetch(`${server.baseUrl}/books/${id}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Files a machine keeps in its own DATA_DIR's uploads folder. */
function uploadedFiles(server: ProductionServer): string[] {
  const folder = path.join(server.dataDir, 'uploads');
  return existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];
}

describe('a cover uploaded on one machine', () => {
  it('is linked by the other machine’s pages, and every size comes from there as WebP', async () => {
    const operator = await operatorOn(a);
    const { id } = await db('books').orderBy('id').first('id');
    const picture = await sharp({ create: { width: 1200, height: 1800, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .jpeg()
      .toBuffer();
    const form = await operator.get(`/admin/books/${id}/cover`).expect(200);
    const uploaded = await operator
      .post(`/admin/books/${id}/cover`)
      .field('_csrf', formToken(form.text))
      .attach('cover', picture, { filename: 'cover.jpg', contentType: 'image/jpeg' });
    expect(uploaded.status, uploaded.text.slice(0, 300)).toBe(303);
    const { coverName } = await db('books').where({ id }).first('coverName');
    expect(await bucket.keys()).toEqual(expect.arrayContaining(WIDTHS.map((w) => `covers/${coverName}-${w}.webp`)));

    const page = await bookPage(b, id);
    const linked = [...new Set([...page.matchAll(new RegExp(`/uploads/covers/${coverName}-(\\d+)\\.webp`, 'g'))].map((m) => m[0]))];
    expect(linked.map((url) => Number(/-(\d+)\.webp$/.exec(url)![1])).sort((x, y) => x - y)).toEqual(WIDTHS);
    for (const url of linked) {
      const res = await fetch(b.baseUrl + url);
      expect([url, res.status, res.headers.get('content-type')]).toEqual([url, 200, 'image/webp']);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const { width } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(url).toContain(`-${width}.webp`);
    }
    // Neither machine keeps a copy of its own: the bucket is the one place covers live.
    expect([uploadedFiles(a), uploadedFiles(b)]).toEqual([[], []]);
  });
});

describe('a parent whose requests land on either machine', () => {
  it('signs in on one and is signed in on the other, with the same cart', async () => {
    const visitor = new Visitor();
    const parent = newParent();
    expect((await visitor.json(a.baseUrl, 'POST', '/api/auth/signup', parent)).status).toBe(201);
    expect(JSON.stringify((await visitor.json(b.baseUrl, 'GET', '/api/auth/user')).body)).toContain(parent.email);
    expect((await visitor.json(b.baseUrl, 'POST', '/api/cart', { bookId: 1, quantity: 2 })).status).toBe(201);
    const cart = JSON.stringify((await visitor.json(a.baseUrl, 'GET', '/api/cart')).body);
    expect(cart).toMatch(/"bookId":1\b/);
    expect(cart).toMatch(/"quantity":2\b/);
  });

  it('pays on one and gets one order from the other, with the browser and Stripe’s webhook landing on different machines', async () => {
    const visitor = new Visitor();
    expect((await visitor.json(a.baseUrl, 'POST', '/api/auth/signup', newParent())).status).toBe(201);
    const { id: bookId, inStock } = await db('books').where('inStock', '>', 3).orderBy('id').first('id', 'inStock');
    expect((await visitor.json(a.baseUrl, 'POST', '/api/cart', { bookId, quantity: 1 })).status).toBe(201);
    const started = await visitor.json(b.baseUrl, 'POST', '/api/create-payment-intent-authenticated', { shippingInfo: SHIPPING });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const intentId = started.body.paymentIntentId as string;
    stripe.setStatus(intentId, 'succeeded');

    const payload = JSON.stringify({
      id: `evt_${intentId}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: intentId, object: 'payment_intent', last_payment_error: null } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const [browser, webhook] = await Promise.all([
      visitor.json(a.baseUrl, 'POST', '/api/complete-order', { stripePaymentIntentId: intentId, shippingInfo: SHIPPING }),
      fetch(`${b.baseUrl}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      }),
    ]);
    expect([browser.status, webhook.status]).toEqual([200, 200]);
    expect(await db('orders').where({ stripePaymentIntentId: intentId })).toHaveLength(1);
    expect(Number((await db('books').where({ id: bookId }).first('inStock')).inStock)).toBe(inStock - 1);
    // The order is the parent's on both machines.
    for (const server of [a, b]) expect((await visitor.json(server.baseUrl, 'GET', '/api/orders')).body).toHaveLength(1);
  });
});

describe('a covers bucket out of reach', () => {
  it('answers /readyz as not ready on both machines, naming the bucket, until it is back', async () => {
    await bucket.stop();
    try {
      for (const server of [a, b]) {
        const res = await fetch(`${server.baseUrl}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', sessions: 'ok', covers: 'unavailable' } });
      }
    } finally {
      await bucket.start();
    }
    for (const server of [a, b]) expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  });
});

describe('two machines started at the same moment on a new database', () => {
  // An empty database on CI's MariaDB, or a MariaDB of the test's own on the embedded leg.
  let empty: TestDatabase | undefined;
  let ownServer: ServiceProcess | undefined;
  let url: string;
  const started: ProductionServer[] = [];
  beforeAll(async () => {
    empty = await createEmptyDatabase();
    if (!empty) ownServer = await mariadbServer();
    url = empty?.databaseUrl ?? ownServer!.url;
  }, 60_000);
  afterAll(async () => {
    for (const server of started) await server.cleanUp();
    await empty?.drop();
    await ownServer?.remove();
  });

  it('both listen, the database is migrated once and the sample catalogue is seeded once', async () => {
    const env = { NODE_ENV: 'production', WEB_CONCURRENCY: '1', DATABASE_URL: url, ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true' };
    const [first, second] = await Promise.all([startProductionServer(env), startProductionServer(env)]);
    started.push(first, second);
    const freshDb = connectDb({ databaseUrl: url, dataDir: tmpdir(), log: createLogger('silent') });
    try {
      const titles = (await freshDb('books').select('title')).map((row: { title: string }) => row.title);
      expect(titles.length).toBeGreaterThan(0);
      expect(new Set(titles).size).toBe(titles.length);
    } finally {
      await freshDb.destroy();
    }
    for (const server of [first, second]) expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  });
});
