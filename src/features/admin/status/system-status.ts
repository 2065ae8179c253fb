import path from 'node:path';
import { behindProxy, type Config } from '../../../config.ts';
import type { Knex } from 'knex';
import { withinDeadline } from '../../../lib/deadline.ts';
import type { Db } from '../../../db.ts';
import type { Logger } from '../../../log.ts';
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
  /** SMTP_URL is set; otherwise mail is written as files under `mailDir`. */
  smtpConfigured: boolean;
  ok: boolean;
  error: string | null;
  mailDir: string | null;
}

export interface ChecklistItem {
  label: string;
  done: boolean;
}

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
  | 'dataDir'
>;

export interface SystemStatusDeps {
  db: Db;
  payments: Pick<PaymentProvider, 'name' | 'isLive' | 'check'>;
  mailer: Pick<Mailer, 'smtpConfigured' | 'verify'>;
  config: StatusConfig;
  /** The shop's log, for a check made outside a request. */
  log: Logger;
  timeoutMs?: number;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)) || 'Unknown error.';

async function count(db: Db, table: string, where: (q: Knex.QueryBuilder) => void = () => {}): Promise<number> {
  const query = db(table);
  where(query);
  const row = (await query.count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export function createSystemStatus({ db, payments, mailer, config, log: shopLog, timeoutMs = STATUS_TIMEOUT_MS }: SystemStatusDeps) {
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
    if (!mailer.smtpConfigured) return { smtpConfigured: false, ok: true, error: null, mailDir: path.join(config.dataDir, 'mail') };
    try {
      const answer = await bounded(() => mailer.verify());
      return { smtpConfigured: true, ok: answer.ok, error: answer.ok ? null : answer.error, mailDir: null };
    } catch (err) {
      // The mail server out of reach or refusing us: the report's email line says why.
      return { smtpConfigured: true, ok: false, error: messageOf(err), mailDir: null };
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
    return [
      { label: 'Stripe live keys set (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY)', done: live },
      { label: 'Stripe webhook secret set (STRIPE_WEBHOOK_SECRET)', done: Boolean(config.STRIPE_WEBHOOK_SECRET) },
      { label: 'Mail server set (SMTP_URL)', done: Boolean(config.SMTP_URL) },
      { label: 'Shop address uses https (PUBLIC_URL)', done: (config.PUBLIC_URL ?? '').startsWith('https://') },
      { label: 'Shop notification address set (SHOP_NOTIFY_EMAIL)', done: Boolean(config.SHOP_NOTIFY_EMAIL) },
      { label: 'Reverse proxy declared (TRUST_PROXY)', done: behindProxy(config) },
      { label: 'An operator signs in with two-step sign-in', done: enrolledOperator },
    ];
  }

  return {
    /** `log` is the request's, so what is logged carries its id. */
    async check(log: Logger = shopLog): Promise<SystemReport> {
      const [paymentsNow, database, email, enrolledOperator, waiting] = await Promise.all([
        paymentStatus(),
        databaseStatus(),
        emailStatus(),
        hasEnrolledOperator(log),
        today(log),
      ]);
      return {
        today: waiting,
        payments: paymentsNow,
        database,
        email,
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
