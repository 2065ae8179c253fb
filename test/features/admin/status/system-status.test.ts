import knexFactory from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/config.ts';
import { createSystemStatus, type SystemStatusDeps } from '../../../../src/features/admin/status/system-status.ts';
import { createMailer } from '../../../../src/features/mail/mailer.ts';
import { createLogger } from '../../../../src/log.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { silentServer } from '../../../helpers/silent-server.ts';
import { deadPort, smtpUrl } from '../../../helpers/smtp-sink.ts';
import { capturedLog } from '../../../helpers/log-capture.ts';

// The checks behind /admin, each given a dependency that is down or hung: the report says
// so in words, and a hung dependency is cut off by the timeout instead of holding the page.
// What the report cannot show as a failure (whether an operator has two-step sign-in, the
// day's counts) is logged at error, with the request id when a request asked.

const { log, lines } = capturedLog('error');
const logged = (msg: string) => lines.filter((line) => line.msg === msg);
const NO_OPERATOR_ANSWER = 'could not tell whether an operator signs in with two-step sign-in; the checklist shows it as not done';
const NO_COUNTS = 'could not count the orders to pack, the open pre-orders and the unread messages for the status page';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ log });
});
afterAll(async () => {
  await shop.close();
});
beforeEach(() => {
  lines.length = 0;
});

const healthyPayments: SystemStatusDeps['payments'] = { name: 'sandbox', isLive: false, check: async () => ({ ok: true }) };
const filesMailer: SystemStatusDeps['mailer'] = { smtpConfigured: false, verify: async () => ({ ok: true }) };

function statusWith(overrides: Partial<SystemStatusDeps>) {
  return createSystemStatus({
    db: shop.db,
    payments: healthyPayments,
    mailer: filesMailer,
    config: shop.config,
    log,
    timeoutMs: 500,
    ...overrides,
  });
}

// knex reports failed connection attempts on the console; here they are the point.
const quiet = { log: { warn() {}, error() {}, debug() {}, deprecate() {} } };

describe('system status checks', () => {
  it('reports all healthy with real counts', async () => {
    const report = await statusWith({}).check();
    expect(report.payments).toEqual({ ok: true, provider: 'sandbox', isLive: false, error: null });
    expect(report.database.ok).toBe(true);
    expect(report.database.bookCount).toBeGreaterThan(0);
    expect(report.email).toMatchObject({ smtpConfigured: false, ok: true });
    expect(report.testMode).toBe(true);
    expect(report.today).toEqual({ toPack: 0, openPreorders: 0, unreadMessages: 0 });
    expect(lines).toEqual([]);
  });

  it("carries the provider's error text", async () => {
    const report = await statusWith({
      payments: { name: 'stripe', isLive: true, check: async () => ({ ok: false, error: 'Invalid API Key provided' }) },
    }).check();
    expect(report.payments).toEqual({ ok: false, provider: 'stripe', isLive: true, error: 'Invalid API Key provided' });
    expect(report.testMode).toBe(false);
  });

  it('turns a provider that throws into an error, never a rejection', async () => {
    const report = await statusWith({ payments: { ...healthyPayments, check: () => Promise.reject(new Error('socket hang up')) } }).check();
    expect(report.payments.error).toBe('socket hang up');
  });

  it('cuts off a provider that never answers', async () => {
    const report = await statusWith({ payments: { ...healthyPayments, check: () => new Promise(() => {}) } }).check();
    expect(report.payments).toMatchObject({ ok: false, error: 'No answer within 0.5 seconds.' });
    expect(report.database.ok).toBe(true);
  });

  it('reports a database nobody listens for', async () => {
    const port = await deadPort();
    const db = knexFactory({
      client: 'mysql2',
      connection: { host: '127.0.0.1', port, user: 'shop', password: 'shop', database: 'shop', connectTimeout: 2_000 },
      pool: { min: 0, max: 1 },
      ...quiet,
    });
    try {
      const report = await statusWith({ db, timeoutMs: 4_000 }).check();
      expect(report.database).toMatchObject({ ok: false, bookCount: null, orderCount: null });
      expect(report.database.error).toMatch(/ECONNREFUSED/);
      expect(report.checklist.find((i) => i.label.includes('two-step'))?.done).toBe(false);
      expect(report.today).toBeNull();
      // The database line says why; what it hides in the checklist and the counts is logged.
      expect(logged(NO_OPERATOR_ANSWER)).toEqual([
        expect.objectContaining({ level: 50, err: expect.objectContaining({ message: expect.stringMatching(/ECONNREFUSED/) }) }),
      ]);
      expect(logged(NO_COUNTS)).toEqual([expect.objectContaining({ level: 50 })]);
    } finally {
      await db.destroy();
    }
  });

  it('reports a database whose pool was closed', async () => {
    const db = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', port: 1, user: 'x', database: 'x' }, ...quiet });
    await db.destroy();
    const report = await statusWith({ db }).check();
    expect(report.database.ok).toBe(false);
    expect(report.database.error).toBeTruthy();
  });

  it('cuts off a database that accepts connections and answers nothing', async () => {
    const hung = await silentServer();
    const db = knexFactory({
      client: 'mysql2',
      connection: { host: '127.0.0.1', port: hung.port, user: 'shop', password: 'shop', database: 'shop', connectTimeout: 30_000 },
      pool: { min: 0, max: 1 },
      ...quiet,
    });
    try {
      const report = await statusWith({ db }).check();
      expect(report.database).toMatchObject({ ok: false, error: 'No answer within 0.5 seconds.' });
    } finally {
      await hung.close();
      await db.destroy().catch(() => {});
    }
  });

  it('verifies SMTP for real: refused, and hung', async () => {
    const config = (url: string) =>
      loadConfig({ NODE_ENV: 'test', DATA_DIR: shop.config.dataDir, SESSION_SECRET: shop.config.SESSION_SECRET, SMTP_URL: url });
    const log = createLogger('silent');
    const refused = createMailer({ db: shop.db, config: config(smtpUrl(await deadPort())), log });
    const refusedReport = await statusWith({ mailer: refused, timeoutMs: 4_000 }).check();
    expect(refusedReport.email).toMatchObject({ smtpConfigured: true, ok: false });
    expect(refusedReport.email.error).toMatch(/ECONNREFUSED/);

    const hung = await silentServer();
    const silent = createMailer({ db: shop.db, config: config(smtpUrl(hung.port)), log });
    try {
      const hungReport = await statusWith({ mailer: silent }).check();
      expect(hungReport.email).toMatchObject({ smtpConfigured: true, ok: false, error: 'No answer within 0.5 seconds.' });
    } finally {
      await hung.close();
      await refused.stop();
      await silent.stop();
    }
  });
});

describe('GET /api/system-status', () => {
  it('answers when the day\u2019s counts cannot be read, and logs why at error with the request id', async () => {
    const { agent } = await operatorBrowser(shop);
    await shop.db.schema.renameTable('contact_messages', 'contact_messages_away');
    let body: Record<string, unknown>;
    try {
      body = (await agent.get('/api/system-status').set('x-request-id', 'status-counts').expect(200)).body as Record<string, unknown>;
    } finally {
      await shop.db.schema.renameTable('contact_messages_away', 'contact_messages');
    }
    expect(body.database).toMatchObject({ bookCount: expect.any(Number) });
    expect(logged(NO_COUNTS)).toEqual([expect.objectContaining({ level: 50, req: expect.objectContaining({ id: 'status-counts' }) })]);
    expect(logged(NO_OPERATOR_ANSWER)).toEqual([]);
  });
});
