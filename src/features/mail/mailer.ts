import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type * as nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { toDate } from '../../lib/dates.ts';
import type { Logger } from '../../log.ts';
import type { MailRequest, MailTemplate } from './mail.types.ts';
import { createMailRenderer } from './templates.ts';

export interface Mailer {
  /** Renders the message and records it in the outbox inside the caller's transaction (or db). A duplicate dedupeKey is silently skipped. */
  enqueue<T extends MailTemplate>(trx: Knex | Knex.Transaction, request: MailRequest<T>): Promise<void>;
  /** Ask the sender to deliver now (call after the transaction commits). Never throws. */
  kick(): void;
  /** Delivers every due message once; returns how many were sent. Used by tests and by the loop. */
  deliverDue(): Promise<number>;
  /** Starts the background loop (polls every few seconds). */
  start(): void;
  /** Stops the loop and waits for an in-flight delivery. */
  stop(): Promise<void>;
  /** Whether real SMTP is configured (for the admin page). */
  readonly smtpConfigured: boolean;
  /** Checks that the SMTP server answers and accepts the login (for the admin page). Never throws. */
  verify(): Promise<{ ok: true } | { ok: false; error: string }>;
}

/** How often the background loop looks for due mail. */
export const POLL_INTERVAL_MS = 5_000;
/** A claimed message is not offered to anyone else for this long (covers a slow SMTP conversation or a crash mid-send). */
export const CLAIM_LEASE_MS = 15 * 60_000;
/** Retry after 30 s, 1 min, 2 min, ... up to an hour, for ever. */
export const RETRY_BASE_MS = 30_000;
export const RETRY_CAP_MS = 60 * 60_000;
/** From this many failed attempts on, each failure is logged as an error rather than a warning. */
export const ALARM_AFTER_ATTEMPTS = 10;
const BATCH_SIZE = 50;

/** The delay before the next try after `attempts` failed attempts (1, 2, ...). */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 20);
  return Math.min(RETRY_BASE_MS * 2 ** exponent, RETRY_CAP_MS);
}

interface OutboxRow {
  id: number;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  attempts: number;
  createdAt: Date | string | number;
  listUnsubscribe: string | null;
  forgetAfterSend: boolean | number;
}

type SendFn = (message: nodemailer.SendMailOptions, row: OutboxRow) => Promise<void>;

export function createMailer(deps: { db: Knex; config: Config; log: Logger; transport?: nodemailer.Transporter }): Mailer {
  const { db, config, log } = deps;
  const renderer = createMailRenderer({
    baseUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    cache: config.isProduction,
  });
  const smtpConfigured = Boolean(deps.transport ?? config.SMTP_URL);
  const { send, close, verify } = chooseTransport(deps);
  const messageIdDomain = domainOf(config.MAIL_FROM);

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let kicked = false;
  let kickLoop: Promise<void> | undefined;
  const inFlight = new Set<Promise<number>>();

  async function deliverOne(row: OutboxRow): Promise<boolean> {
    try {
      await send(
        {
          from: config.MAIL_FROM,
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody,
          // The same id on every attempt, so a receiver can spot a resend after a crash.
          messageId: `<outbox.${row.id}.${createdSeconds(row.createdAt)}@${messageIdDomain}>`,
          ...(row.listUnsubscribe ? { headers: oneClickUnsubscribe(row.listUnsubscribe) } : {}),
        },
        row,
      );
    } catch (err) {
      const attempts = row.attempts + 1;
      const nextAttemptAt = new Date(Date.now() + retryDelayMs(attempts));
      const lastError = describeError(err);
      await db('outbox')
        .where({ id: row.id, sentAt: null })
        .update({ attempts: db.raw('attempts + 1'), lastError, nextAttemptAt });
      const details = { outboxId: row.id, to: row.toAddress, attempts, nextAttemptAt, err: lastError };
      if (attempts >= ALARM_AFTER_ATTEMPTS) log.error(details, 'mail: delivery keeps failing; will retry');
      else log.warn(details, 'mail: delivery failed; will retry');
      return false;
    }
    // A mail to an address being forgotten (an erased account's confirmation) leaves no copy.
    if (row.forgetAfterSend) await db('outbox').where({ id: row.id }).delete();
    else
      await db('outbox')
        .where({ id: row.id })
        .update({ sentAt: new Date(), attempts: db.raw('attempts + 1'), lastError: null });
    log.debug({ outboxId: row.id, to: row.toAddress }, 'mail: sent');
    return true;
  }

  /** Takes a due message for this process alone: only one UPDATE can move its next_attempt_at past now. */
  async function claim(id: number, now: Date): Promise<boolean> {
    const affected = await db('outbox')
      .where({ id, sentAt: null })
      .where('nextAttemptAt', '<=', now)
      .update({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) });
    return Number(affected) === 1;
  }

  async function deliverDueNow(): Promise<number> {
    let sent = 0;
    const seen = new Set<number>();
    for (;;) {
      const now = new Date();
      const rows = await db('outbox')
        .select<OutboxRow[]>(
          'id',
          'toAddress',
          'subject',
          'textBody',
          'htmlBody',
          'attempts',
          'createdAt',
          'listUnsubscribe',
          'forgetAfterSend',
        )
        .whereNull('sentAt')
        .where('nextAttemptAt', '<=', now)
        .orderBy([{ column: 'nextAttemptAt' }, { column: 'id' }])
        .limit(BATCH_SIZE);
      const fresh = rows.filter((row) => !seen.has(row.id));
      for (const row of fresh) {
        seen.add(row.id);
        if (!(await claim(row.id, now))) continue;
        if (await deliverOne({ ...row, attempts: Number(row.attempts) })) sent += 1;
      }
      // A full batch may hide more due mail; every row tried here is no longer due.
      if (rows.length < BATCH_SIZE || fresh.length === 0) return sent;
    }
  }

  function deliverDue(): Promise<number> {
    const run = deliverDueNow();
    inFlight.add(run);
    const forget = () => inFlight.delete(run);
    run.then(forget, forget);
    return run;
  }

  function kick(): void {
    if (stopped) return;
    kicked = true;
    // Kicks that arrive while a delivery runs are folded into one more pass after it.
    kickLoop ??= (async () => {
      try {
        await new Promise<void>((resolve) => setImmediate(resolve));
        while (kicked && !stopped) {
          kicked = false;
          try {
            await deliverDue();
          } catch (err) {
            log.error({ err }, 'mail: delivery pass failed');
          }
        }
      } finally {
        kickLoop = undefined;
      }
    })();
  }

  return {
    smtpConfigured,

    async verify() {
      try {
        await verify();
        return { ok: true };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },

    async enqueue(trx, request) {
      const { subject, text, html } = renderer.render(request.template, request.data);
      const now = new Date();
      const row = {
        toAddress: request.to,
        subject,
        textBody: text,
        htmlBody: html,
        dedupeKey: request.dedupeKey ?? null,
        orderId: request.orderId ?? null,
        listUnsubscribe: request.unsubscribeUrl ?? null,
        forgetAfterSend: request.forgetAfterSend ?? false,
        attempts: 0,
        // Whole seconds: a DATETIME column may round up, which would make new mail look not yet due.
        nextAttemptAt: new Date(Math.floor(now.getTime() / 1000) * 1000),
        createdAt: now,
      };
      if (request.dedupeKey !== undefined) {
        const existing = await trx('outbox').first<{ id: number } | undefined>('id').where({ dedupeKey: request.dedupeKey });
        if (existing) return;
      }
      try {
        await trx('outbox').insert(row);
      } catch (err) {
        // A concurrent transaction recorded the same key first: that message stands.
        if (request.dedupeKey !== undefined && isUniqueViolation(err)) return;
        throw err;
      }
    },

    kick,
    deliverDue,

    start() {
      if (timer || stopped) return;
      timer = setInterval(kick, POLL_INTERVAL_MS);
      timer.unref();
      kick();
    },

    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await kickLoop;
      await Promise.allSettled([...inFlight]);
      close();
    },
  };
}

/** RFC 8058: a mail app may POST to the link itself, with no page in between. */
function oneClickUnsubscribe(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

// nodemailer costs memory once loaded: each transport is made with the first message it
// carries (or the first readiness check), so an idle shop does not carry it.
function lazyTransport(make: (mailer: typeof nodemailer) => nodemailer.Transporter) {
  let transport: nodemailer.Transporter | undefined;
  return {
    get: () => (transport ??= make(createRequire(import.meta.url)('nodemailer') as typeof nodemailer)),
    close: () => transport?.close(),
  };
}

function chooseTransport(deps: { config: Config; log: Logger; transport?: nodemailer.Transporter }): {
  send: SendFn;
  close: () => void;
  verify: () => Promise<unknown>;
} {
  if (deps.transport) {
    const transport = deps.transport;
    return { send: async (message) => void (await transport.sendMail(message)), close: () => {}, verify: () => transport.verify() };
  }
  const smtpUrl = deps.config.SMTP_URL;
  if (smtpUrl) {
    const smtp = lazyTransport((mailer) => mailer.createTransport(smtpUrl));
    return {
      send: async (message) => void (await smtp.get().sendMail(message)),
      close: smtp.close,
      verify: () => smtp.get().verify(),
    };
  }
  // No SMTP: each message becomes an .eml file under DATA_DIR/mail, readable by any mail program.
  const dir = path.join(deps.config.dataDir, 'mail');
  const files = lazyTransport((mailer) => mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    send: async (message, row) => {
      const info = await files.get().sendMail(message);
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${row.id}-${randomBytes(3).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { flag: 'wx' });
      deps.log.info({ to: row.toAddress, subject: row.subject, file }, `mail: "${row.subject}" to ${row.toAddress}`);
    },
    close: files.close,
    // Files need no server: there is nothing to reach.
    verify: async () => mkdir(dir, { recursive: true }),
  };
}

function domainOf(from: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'littlelanternbooks.localhost';
}

/** The outbox has no model: its instant is converted by the same rule the models use. */
function createdSeconds(value: Date | string | number): number {
  const ms = toDate(value).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 2000);
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // MySQL/MariaDB: ER_DUP_ENTRY; better-sqlite3: SQLITE_CONSTRAINT_UNIQUE.
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
