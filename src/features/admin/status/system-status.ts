import { availableParallelism } from 'node:os';
import { behindProxy, type Config } from '../../../config.ts';
import type { Knex } from 'knex';
import { withinDeadline } from '../../../lib/deadline.ts';
import type { Db } from '../../../db.ts';
import type { Logger } from '../../../log.ts';
import type { CoverStore } from '../../covers/cover-store.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { PaymentProvider } from '../../payments/provider.ts';

// What /admin and GET /api/system-status report: each dependency is really asked, all at
// once, and each answer is awaited for a bounded time, so a hung provider, database or mail
// server shows as an error on the page instead of holding the page up. check() never throws:
// a dependency's failure is its line of the report; a failure the report cannot show as such
// (the checklist's operator, the day's counts) is logged at error with the request id.

export const STATUS_TIMEOUT_MS = 4_000;

export interface PaymentStatus {
  ok: boolean;
  provider: PaymentProvider['name'];
  isLive: boolean;
  error: string | null;
}

export interface DatabaseStatus {
  ok: boolean;
  bookCount: number | null;
  orderCount: number | null;
  error: string | null;
}

export interface EmailStatus {
  /** SMTP_URL is set; otherwise mail is written as files on the server, which the page says without naming where. */
  smtpConfigured: boolean;
  ok: boolean;
  error: string | null;
}

export interface CoversStatus {
  /** Where covers live: this server's disk, or a bucket every server shares (S3_BUCKET). */
  where: CoverStore['kind'];
  ok: boolean;
  error: string | null;
}

export interface ChecklistItem {
  /** What the operator reads: a sentence on what is missing and what to do, or that it is done. */
  label: string;
  /** The settings behind it, named for whoever hosts the shop; none when the operator does it here. */
  settings: string[];
  done: boolean;
}

/** Most of the list is the host's to do: the operator reads what it means and whom to ask. */
const ASK_HOST = 'Ask whoever hosts the shop to';

/** What is waiting for the publisher; null when the database could not say. */
export interface Today {
  /** Paid orders not shipped or canceled yet. */
  toPack: number;
  /** Paid pre-orders waiting for their books to come out (status 'preordered'). */
  openPreorders: number;
  unreadMessages: number;
}

export interface SystemReport {
  today: Today | null;
  payments: PaymentStatus;
  database: DatabaseStatus;
  email: EmailStatus;
  covers: CoversStatus;
  /** Taking test payments (the sandbox, or Stripe test keys): what is left before launch. */
  testMode: boolean;
  checklist: ChecklistItem[];
}

/**
 * Whether the pre-launch checklist leads the /admin home: while the shop takes test payments or
 * anything on the list is left to do, that is the operator's first job; after launch it waits
 * below the numbers.
 */
export function checklistFirst(report: Pick<SystemReport, 'testMode' | 'checklist'>): boolean {
  return report.testMode || report.checklist.some((item) => !item.done);
}

type StatusConfig = Pick<
  Config,
  | 'STRIPE_SECRET_KEY'
  | 'STRIPE_PUBLISHABLE_KEY'
  | 'STRIPE_WEBHOOK_SECRET'
  | 'SMTP_URL'
  | 'PUBLIC_URL'
  | 'SHOP_NOTIFY_EMAIL'
  | 'TRUST_PROXY'
  | 'S3_BUCKET'
  | 'WEB_CONCURRENCY'
  | 'isProduction'
>;

export interface SystemStatusDeps {
  db: Db;
  payments: Pick<PaymentProvider, 'name' | 'isLive' | 'check'>;
  mailer: Pick<Mailer, 'smtpConfigured' | 'verify'>;
  config: StatusConfig;
  /** Where covers are kept; unset: this server's disk. */
  coverStore?: Pick<CoverStore, 'kind' | 'ping'>;
  /** The shop's log, for a check made outside a request. */
  log: Logger;
  timeoutMs?: number;
}

const ON_DISK: Pick<CoverStore, 'kind' | 'ping'> = { kind: 'disk', ping: async () => {} };

/**
 * Covers on this server's disk are seen by this server alone: a second one behind the same
 * address would link them and answer Page Not Found. Said more strongly when WEB_CONCURRENCY
 * asks for more processes than this machine has cores, as a set-up meant for several machines.
 */
function coversItem(config: Pick<StatusConfig, 'S3_BUCKET' | 'WEB_CONCURRENCY'>): ChecklistItem {
  const settings = ['S3_BUCKET'];
  if (config.S3_BUCKET) {
    return { label: 'Covers are kept in a storage bucket every server shares, so each server shows them all.', settings, done: true };
  }
  const beyondOneMachine = (config.WEB_CONCURRENCY ?? 1) > availableParallelism();
  const label = beyondOneMachine
    ? `Covers are kept on this server's disk only, yet the shop is set up for more processes than one machine runs: a second server would show none of the covers uploaded here. ${ASK_HOST} set up an S3-compatible storage bucket before adding a server.`
    : `Covers are kept on this server's disk, so a second server would not see them. ${ASK_HOST} set up an S3-compatible storage bucket before the shop runs on more than one server.`;
  return { label, settings, done: false };
}

/** The bucket's answer in words: the SDK names a missing bucket or refused key by its code, with no message. */
function bucketAnswer(err: unknown): string {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (status === 404) return `The bucket does not exist (${e.name ?? 'NotFound'}).`;
  if (status === 403) return `The bucket refused the access key (${e.name ?? 'Forbidden'}).`;
  return messageOf(err);
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)) || 'Unknown error.';

async function count(db: Db, table: string, where: (q: Knex.QueryBuilder) => void = () => {}): Promise<number> {
  const query = db(table);
  where(query);
  const row = (await query.count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export function createSystemStatus({
  db,
  payments,
  mailer,
  config,
  coverStore = ON_DISK,
  log: shopLog,
  timeoutMs = STATUS_TIMEOUT_MS,
}: SystemStatusDeps) {
  const bounded = <T>(work: () => Promise<T>) =>
    withinDeadline(Promise.resolve().then(work), timeoutMs, () => new Error(`No answer within ${timeoutMs / 1000} seconds.`));

  async function paymentStatus(): Promise<PaymentStatus> {
    const base = { provider: payments.name, isLive: payments.isLive };
    try {
      const answer = await bounded(() => payments.check());
      return answer.ok ? { ...base, ok: true, error: null } : { ...base, ok: false, error: answer.error || 'Unknown error.' };
    } catch (err) {
      // The provider out of reach or refusing the key: the report's payments line says why.
      return { ...base, ok: false, error: messageOf(err) };
    }
  }

  async function databaseStatus(): Promise<DatabaseStatus> {
    try {
      const [bookCount, orderCount] = await bounded(() => Promise.all([count(db, 'books'), count(db, 'orders')]));
      return { ok: true, bookCount, orderCount, error: null };
    } catch (err) {
      // The database out of reach or failing: the report's database line says why.
      return { ok: false, bookCount: null, orderCount: null, error: messageOf(err) };
    }
  }

  async function emailStatus(): Promise<EmailStatus> {
    if (!mailer.smtpConfigured) return { smtpConfigured: false, ok: true, error: null };
    try {
      const answer = await bounded(() => mailer.verify());
      return { smtpConfigured: true, ok: answer.ok, error: answer.ok ? null : answer.error };
    } catch (err) {
      // The mail server out of reach or refusing us: the report's email line says why.
      return { smtpConfigured: true, ok: false, error: messageOf(err) };
    }
  }

  async function coversStatus(): Promise<CoversStatus> {
    const where = coverStore.kind;
    if (where === 'disk') return { where, ok: true, error: null };
    try {
      await bounded(() => coverStore.ping());
      return { where, ok: true, error: null };
    } catch (err) {
      // The bucket out of reach, missing, or refusing the credentials: the covers card says why.
      return { where, ok: false, error: bucketAnswer(err) };
    }
  }

  /** An operator who can sign in with a second factor; a database that cannot say counts as none, and is logged. */
  async function hasEnrolledOperator(log: Logger): Promise<boolean> {
    try {
      return Boolean(await bounded(() => db('users').where({ role: 'operator' }).whereNotNull('totpEnrolledAt').first('id')));
    } catch (err) {
      log.error({ err }, 'could not tell whether an operator signs in with two-step sign-in; the checklist shows it as not done');
      return false;
    }
  }

  async function today(log: Logger): Promise<Today | null> {
    try {
      const [toPack, openPreorders, unreadMessages] = await bounded(() =>
        Promise.all([
          count(db, 'orders', (q) => q.where({ status: 'succeeded' }).whereNull('shippedAt').whereNull('canceledAt')),
          count(db, 'orders', (q) => q.where({ status: 'preordered' })),
          count(db, 'contact_messages', (q) => q.whereNull('readAt')),
        ]),
      );
      return { toPack, openPreorders, unreadMessages };
    } catch (err) {
      log.error({ err }, 'could not count the orders to pack, the open pre-orders and the unread messages for the status page');
      return null;
    }
  }

  function checklist(enrolledOperator: boolean): ChecklistItem[] {
    const live = /^(sk|rk)_live_/.test(config.STRIPE_SECRET_KEY ?? '') && /^pk_live_/.test(config.STRIPE_PUBLISHABLE_KEY ?? '');
    const item = (done: boolean, whenDone: string, whenNot: string, settings: string[]): ChecklistItem => ({
      label: done ? whenDone : whenNot,
      settings,
      done,
    });
    return [
      item(
        live,
        'Card payments are live: real cards are charged.',
        `Card payments are in test mode: real cards cannot be charged yet. ${ASK_HOST} add your Stripe live keys.`,
        ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'],
      ),
      item(
        Boolean(config.STRIPE_WEBHOOK_SECRET),
        'Stripe tells the shop about every payment, even one finished after the parent closed the page.',
        `Stripe cannot yet tell the shop about a payment finished after the parent closed the page. ${ASK_HOST} add the Stripe webhook secret.`,
        ['STRIPE_WEBHOOK_SECRET'],
      ),
      item(
        Boolean(config.SMTP_URL),
        'Emails are sent through your mail server.',
        `Emails are not sent yet: order confirmations and password resets are saved as files on the server. ${ASK_HOST} connect a mail server.`,
        ['SMTP_URL'],
      ),
      item(
        (config.PUBLIC_URL ?? '').startsWith('https://'),
        "The shop's web address starts with https, so the links in its emails are secure.",
        `The shop's web address does not start with https yet, so the links in its emails are not secure. ${ASK_HOST} set it, starting with https.`,
        ['PUBLIC_URL'],
      ),
      item(
        Boolean(config.SHOP_NOTIFY_EMAIL),
        'You are emailed about each new order and message.',
        `Nobody is emailed about new orders and messages yet. ${ASK_HOST} set the address the shop writes to.`,
        ['SHOP_NOTIFY_EMAIL'],
      ),
      item(
        behindProxy(config),
        'The server knows the proxy in front of it, so each visitor is counted on their own.',
        `The server does not know about the proxy in front of it, so sign-in limits may treat every visitor as one. ${ASK_HOST} declare the proxy.`,
        ['TRUST_PROXY'],
      ),
      ...(config.isProduction ? [coversItem(config)] : []),
      item(
        enrolledOperator,
        'An operator signs in with two-step sign-in.',
        'No operator signs in with two-step sign-in yet: sign in again and turn it on with an authenticator app.',
        [],
      ),
    ];
  }

  return {
    /** `log` is the request's, so what is logged carries its id. */
    async check(log: Logger = shopLog): Promise<SystemReport> {
      const [paymentsNow, database, email, covers, enrolledOperator, waiting] = await Promise.all([
        paymentStatus(),
        databaseStatus(),
        emailStatus(),
        coversStatus(),
        hasEnrolledOperator(log),
        today(log),
      ]);
      return {
        today: waiting,
        payments: paymentsNow,
        database,
        email,
        covers,
        testMode: !paymentsNow.isLive,
        checklist: checklist(enrolledOperator),
      };
    },
  };
}

export type SystemStatus = ReturnType<typeof createSystemStatus>;

/** GET /api/system-status: these fields, exactly, as a monitor may read them (docs/architecture.md, "What the API answers"). */
export function toStatusDto(report: SystemReport) {
  return {
    stripe: { configured: report.payments.provider === 'stripe', isLive: report.payments.isLive, error: report.payments.error },
    database: { bookCount: report.database.bookCount, orderCount: report.database.orderCount },
    email: { configured: report.email.smtpConfigured },
  };
}
