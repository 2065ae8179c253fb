import { createPaymentProvider } from '../../src/features/payments/index.ts';
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { connectDb, isMySql, migrateLatest, type Db } from '../../src/db.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { loadAssets } from '../../src/web/assets.ts';
import { openSessionStore, type SessionStore } from '../../src/web/session.ts';
import type { Limit } from '../../src/web/throttle.ts';
import { createDeferred, type Deferred } from '../../src/lib/deferred.ts';
import { seedCatalogue } from '../../seeds/books.ts';
import { createMailer, type Mailer } from '../../src/features/mail/mailer.ts';
import { watchCatalogue } from '../../src/features/catalog/catalogue-watch.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface TestShop {
  app: Express;
  db: Db;
  config: Config;
  sessions: SessionStore;
  mailer: Mailer;
  /** The same services the routes use, built once as serve.ts builds them. */
  services: Services;
  /** Work the shop does after answering; flushMail waits for it. */
  later: Deferred;
  database: TestDatabase;
  /**
   * A supertest agent that keeps cookies, like one browser on the shop's own pages: it says
   * so (`Sec-Fetch-Site: same-origin`), as browsers do, which a visitor's first change needs.
   * A test of a request from elsewhere sets the header itself, or unsets it.
   */
  browser(): supertest.Agent;
  /** The same database and session store behind a freshly built app: a restart. */
  restart(): Promise<TestShop>;
  close(): Promise<void>;
}

export interface TestShopOptions {
  seed?: boolean;
  database?: TestDatabase;
  sessionPrefix?: string;
  /** Extra settings, e.g. SMTP_URL pointing at a test SMTP server. */
  env?: Record<string, string>;
  /** Limits replaced by name; by default sign-ups are unlimited, as most tests sign parents up from one address. */
  limits?: Record<string, Limit>;
  /** Runs the work the shop does after answering; by default at once, in the background. */
  later?: Deferred;
  /** Where the shop logs; silent by default. */
  log?: Logger;
  /** The shop's calendar day ("2026-11-28"), asked afresh each time; by default today in SHOP_TIME_ZONE. */
  today?: () => string;
}

const GENEROUS = { points: 1_000_000, windowMs: 60_000 };
export const TEST_LIMITS: Record<string, Limit> = {
  'signup-client': GENEROUS,
  'contact-client': GENEROUS,
  'contact-session': GENEROUS,
  'contact-shop-notify': GENEROUS,
  'new-session-client': GENEROUS,
};

/** Builds the real shop on a fresh database (SQLite, or MariaDB + Redis when CI sets their URLs). */
export async function buildTestShop({
  seed = true,
  database,
  sessionPrefix,
  env = {},
  limits = TEST_LIMITS,
  later: givenLater,
  log = createLogger('silent'),
  today,
}: TestShopOptions = {}): Promise<TestShop> {
  const data = database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: data.dataDir,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    // Cheap hashes (production refuses them): test/features/accounts/passwords.test.ts holds production's parameters.
    ...(env.NODE_ENV === 'production' ? {} : { PASSWORD_HASH_COST: 'test' }),
    ...(data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const db = connectDb({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, log });
  await migrateLatest(db);
  if (seed) await seedCatalogue(db, today?.());
  const prefix = sessionPrefix ?? `test:${randomBytes(6).toString('hex')}:`;
  const sessions = await openSessionStore(config, db, { prefix, log });
  // The sender does not run in the background here: tests deliver with mailer.deliverDue().
  const mailer = createMailer({ db, config, log });
  const payments = createPaymentProvider({ config, db });
  const later =
    givenLater ??
    createDeferred((err) => {
      throw err;
    });
  // Started here, as serve.ts starts it: catalogue changes reach the page cache as in production.
  const catalogue = watchCatalogue({ db, redis: sessions.redis, soleServer: !isMySql(db), log });
  const services = createServices({
    config,
    db,
    log,
    mailer,
    payments,
    catalogue,
    redis: sessions.redis,
    later,
    throttles: { prefix: `${prefix}throttle:`, overrides: limits },
    today,
  });
  const app = createApp({ config, db, sessions, log, assets: loadAssets(), services });

  const shop: TestShop = {
    app,
    db,
    config,
    sessions,
    mailer,
    services,
    later,
    database: data,
    browser: () => supertest.agent(app).set('sec-fetch-site', 'same-origin'),
    restart: async () => {
      await sessions.close();
      await db.destroy();
      return buildTestShop({ seed: false, database: data, sessionPrefix: prefix, env, limits, log, today });
    },
    close: async () => {
      await later.settled();
      await mailer.stop();
      await sessions.close();
      await db.destroy();
      await data.drop();
    },
  };
  return shop;
}

/**
 * Reads the CSRF token the way the islands do. Reading makes no session, so a browser without
 * one first makes it as a visitor's first change does: a harmless change from the shop's own
 * page (checking an address), which needs no token.
 */
export async function csrfTokenFor(agent: supertest.Agent): Promise<string> {
  const res = await agent.get('/api/session').expect(200);
  if (typeof res.body.csrfToken === 'string') return res.body.csrfToken;
  await startSession(agent);
  const again = await agent.get('/api/session').expect(200);
  if (typeof again.body.csrfToken !== 'string') throw new Error('no session after a first change');
  return again.body.csrfToken;
}

/** Makes the browser's session as a visitor's first change does (see csrfTokenFor). */
export async function startSession(agent: supertest.Agent): Promise<void> {
  await agent
    .post('/api/validate-address')
    .set('sec-fetch-site', 'same-origin')
    .send({ address: '1 Main Street', city: 'Springfield', zipCode: '62701' })
    .expect(200);
}

/**
 * Reads the hidden CSRF field from a server-rendered form: empty on a page read without a
 * session, whose first post needs no token.
 */
export function formToken(html: string): string {
  const match = /name="_csrf" value="([^"]*)"/.exec(html);
  if (!match) throw new Error('page has no CSRF field');
  return match[1]!;
}

/** Delivers every queued message, waiting for any delivery a kick() already started. */
export async function flushMail(shop: TestShop, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await shop.later.settled();
  for (;;) {
    await shop.mailer.deliverDue();
    const row = (await shop.db('outbox').whereNull('sentAt').count({ n: '*' }).first()) as { n: number | string };
    if (Number(row.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row.n} message(s) still unsent`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
