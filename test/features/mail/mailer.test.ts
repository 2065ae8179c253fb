import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.ts';
import { connectDb, migrateLatest, type Db } from '../../../src/db.ts';
import { ALARM_AFTER_ATTEMPTS, RETRY_CAP_MS, createMailer, retryDelayMs, type Mailer } from '../../../src/features/mail/mailer.ts';
import type { MailRequest } from '../../../src/features/mail/mail.types.ts';
import type { Logger } from '../../../src/log.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { deadPort, decodeQuotedPrintable, smtpUrl, startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

const FROM = 'Little Lantern Books <hello@littlelanternbooks.example>';

let database: TestDatabase;
let db: Db;
let smtp: SmtpSink;
const mailers: Mailer[] = [];
const extraDbs: Db[] = [];

function configFor(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: 'https://shop.example.com',
    MAIL_FROM: FROM,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...overrides,
  });
}

function fakeLog() {
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn(), trace: vi.fn(), fatal: vi.fn() };
  return { log: log as unknown as Logger, calls: log };
}

function mailerFor(options: { smtpUrl?: string; db?: Db; log?: Logger } = {}): Mailer {
  const mailer = createMailer({
    db: options.db ?? db,
    config: configFor(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
    log: options.log ?? fakeLog().log,
  });
  mailers.push(mailer);
  return mailer;
}

const welcome = (to = 'maya@example.com', dedupeKey?: string): MailRequest<'welcome'> => ({
  to,
  template: 'welcome',
  data: { firstName: 'Maya' },
  ...(dedupeKey ? { dedupeKey } : {}),
});

async function outbox() {
  return db('outbox').select('*').orderBy('id');
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  await migrateLatest(db);
  smtp = await startSmtpSink();
});

afterAll(async () => {
  await smtp.close();
  for (const other of extraDbs) await other.destroy();
  await db.destroy();
  await database.drop();
});

beforeEach(async () => {
  await db('outbox').del();
  smtp.received.length = 0;
});

afterEach(async () => {
  while (mailers.length > 0) await mailers.pop()?.stop();
});

describe('mailer over SMTP', () => {
  it('sends nothing for a message enqueued in a transaction that rolls back', async () => {
    const mailer = mailerFor({ smtpUrl: smtp.url });
    await expect(
      db.transaction(async (trx) => {
        await mailer.enqueue(trx, welcome());
        throw new Error('payment declined');
      }),
    ).rejects.toThrow('payment declined');

    expect(await outbox()).toHaveLength(0);
    expect(await mailer.deliverDue()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('delivers a committed message exactly once with To, From, Subject and both parts', async () => {
    const mailer = mailerFor({ smtpUrl: smtp.url });
    expect(mailer.smtpConfigured).toBe(true);
    await db.transaction(async (trx) => {
      await mailer.enqueue(trx, {
        to: 'sam@example.com',
        template: 'reset-link',
        data: { firstName: 'Sam', resetUrl: 'https://shop.example.com/reset-password/abc123', expiresInMinutes: 30 },
      });
    });

    expect(await mailer.deliverDue()).toBe(1);
    expect(await mailer.deliverDue()).toBe(0);
    expect(smtp.received).toHaveLength(1);

    const [mail] = smtp.received;
    expect(mail?.mailFrom).toBe('hello@littlelanternbooks.example');
    expect(mail?.rcptTo).toEqual(['sam@example.com']);
    const raw = mail?.raw ?? '';
    expect(raw).toMatch(/^To: sam@example\.com\r?$/m);
    expect(raw).toMatch(/^From: Little Lantern Books <hello@littlelanternbooks\.example>\r?$/m);
    expect(raw).toMatch(/^Subject: Reset your Little Lantern Books password\r?$/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8\r?$/m);
    expect(raw).toMatch(/^Content-Type: text\/html; charset=utf-8\r?$/m);
    expect(raw).toContain('https://shop.example.com/reset-password/abc123');
    expect(raw).toContain('href="https://shop.example.com/reset-password/abc123"');
    expect(raw).toContain('Hello Sam,');

    const [row] = await outbox();
    expect(row.sentAt).not.toBeNull();
    expect(Number(row.attempts)).toBe(1);
  });

  it('records one row for a repeated dedupe key, even after the first was sent', async () => {
    const mailer = mailerFor({ smtpUrl: smtp.url });
    await db.transaction((trx) => mailer.enqueue(trx, welcome('maya@example.com', 'welcome:7')));
    await db.transaction((trx) => mailer.enqueue(trx, welcome('maya@example.com', 'welcome:7')));
    await mailer.enqueue(db, welcome('maya@example.com', 'welcome:7'));
    expect(await outbox()).toHaveLength(1);

    expect(await mailer.deliverDue()).toBe(1);
    await mailer.enqueue(db, welcome('maya@example.com', 'welcome:7'));
    expect(await mailer.deliverDue()).toBe(0);
    expect(await outbox()).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);

    // Two transactions racing with the same key: one message, and neither transaction fails.
    await Promise.all(
      [1, 2].map(() =>
        db.transaction(async (trx) => {
          await mailer.enqueue(trx, welcome('maya@example.com', 'welcome:8'));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }),
      ),
    );
    expect(await db('outbox').where({ dedupeKey: 'welcome:8' })).toHaveLength(1);
    await db('outbox').where({ dedupeKey: 'welcome:8' }).del();

    // Messages without a key are never merged.
    await mailer.enqueue(db, welcome());
    await mailer.enqueue(db, welcome());
    expect(await outbox()).toHaveLength(3);
  });

  it('keeps a message when SMTP is down and delivers it once the server is back', async () => {
    const port = await deadPort();
    const { log, calls } = fakeLog();
    const mailer = mailerFor({ smtpUrl: smtpUrl(port), log });
    await db.transaction((trx) => mailer.enqueue(trx, welcome('lee@example.com')));

    const before = Date.now();
    expect(await mailer.deliverDue()).toBe(0);
    const [failed] = await outbox();
    expect(failed.sentAt).toBeNull();
    expect(Number(failed.attempts)).toBe(1);
    expect(String(failed.lastError)).toMatch(/ECONNREFUSED|connect/i);
    const next = new Date(failed.nextAttemptAt).getTime();
    expect(next).toBeGreaterThan(before + 20_000);
    expect(calls.warn).toHaveBeenCalledTimes(1);

    // Not due yet: nothing is tried.
    expect(await mailer.deliverDue()).toBe(0);
    expect(Number((await outbox())[0].attempts)).toBe(1);

    const revived = await startSmtpSink(port);
    try {
      await db('outbox').update({ nextAttemptAt: new Date(Date.now() - 60_000) });
      expect(await mailer.deliverDue()).toBe(1);
      expect(revived.received).toHaveLength(1);
      expect(revived.received[0]?.raw).toMatch(/^Subject: Welcome to Little Lantern Books\r?$/m);
      const [sent] = await outbox();
      expect(sent.sentAt).not.toBeNull();
    } finally {
      await revived.close();
    }
  });

  it('keeps retrying at the cap and logs an error once a message has failed many times', async () => {
    expect(retryDelayMs(1)).toBe(30_000);
    expect(retryDelayMs(2)).toBe(60_000);
    expect(retryDelayMs(8)).toBe(RETRY_CAP_MS);
    expect(retryDelayMs(500)).toBe(RETRY_CAP_MS);

    const { log, calls } = fakeLog();
    const mailer = mailerFor({ smtpUrl: smtpUrl(await deadPort()), log });
    await mailer.enqueue(db, welcome());
    await db('outbox').update({ attempts: ALARM_AFTER_ATTEMPTS - 1 });

    const before = Date.now();
    expect(await mailer.deliverDue()).toBe(0);
    expect(calls.error).toHaveBeenCalledTimes(1);
    const [row] = await outbox();
    expect(Number(row.attempts)).toBe(ALARM_AFTER_ATTEMPTS);
    const next = new Date(row.nextAttemptAt).getTime();
    expect(next).toBeGreaterThan(before + RETRY_CAP_MS - 5_000);
    expect(next).toBeLessThan(before + RETRY_CAP_MS + 5_000);
  });

  it('delivers a message once when two senders run at the same moment', async () => {
    const mailer = mailerFor({ smtpUrl: smtp.url });
    // A second process: its own connection to the same database.
    const otherDb = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    extraDbs.push(otherDb);
    const other = mailerFor({ smtpUrl: smtp.url, db: otherDb });

    for (let i = 0; i < 5; i++) await mailer.enqueue(db, welcome(`reader${i}@example.com`));
    const counts = await Promise.all([mailer.deliverDue(), mailer.deliverDue(), other.deliverDue(), other.deliverDue()]);

    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(smtp.received).toHaveLength(5);
    expect(new Set(smtp.received.flatMap((m) => m.rcptTo)).size).toBe(5);
    expect(await mailer.deliverDue()).toBe(0);
  });

  it('sends soon after kick() and from the background loop, and stop() waits for it', async () => {
    const mailer = mailerFor({ smtpUrl: smtp.url });
    await mailer.enqueue(db, welcome('kick@example.com'));
    mailer.kick();
    mailer.kick();
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 5_000 });

    mailer.start();
    await mailer.enqueue(db, welcome('loop@example.com'));
    mailer.kick();
    await vi.waitFor(() => expect(smtp.received).toHaveLength(2), { timeout: 5_000 });
    await mailer.stop();
    expect(smtp.received.flatMap((m) => m.rcptTo)).toEqual(['kick@example.com', 'loop@example.com']);
  });
});

describe('mailer without SMTP', () => {
  it('writes each message to a readable .eml file under DATA_DIR/mail and logs its subject', async () => {
    const { log, calls } = fakeLog();
    const mailer = mailerFor({ log });
    expect(mailer.smtpConfigured).toBe(false);
    await db.transaction((trx) => mailer.enqueue(trx, { to: 'ana@example.com', template: 'contact-received', data: { firstName: 'Ana' } }));

    expect(await mailer.deliverDue()).toBe(1);
    const dir = path.join(database.dataDir, 'mail');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = decodeQuotedPrintable(await readFile(path.join(dir, files[0] ?? ''), 'utf8'));
    expect(eml).toMatch(/^To: ana@example\.com$/m);
    expect(eml).toMatch(/^From: Little Lantern Books <hello@littlelanternbooks\.example>$/m);
    expect(eml).toMatch(/^Subject: We received your message$/m);
    expect(eml).toContain('text/plain');
    expect(eml).toContain('text/html');
    expect(eml).toContain('Hello Ana,');

    expect(calls.info).toHaveBeenCalledWith(
      expect.objectContaining({ to: 'ana@example.com', subject: 'We received your message' }),
      expect.stringContaining('We received your message'),
    );
    const [row] = await outbox();
    expect(row.sentAt).not.toBeNull();
  });
});
