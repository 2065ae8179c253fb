import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import type { Logger } from '../../log.ts';
import { comparedWith } from '../../lib/portable-sql.ts';

/** How long the shop keeps what it no longer needs (docs/operating.md, "What is kept how long"). */
export const KEPT_DAYS = {
  /** A visitor's cart, untouched: they have not come back. */
  visitorCarts: 30,
  /** The address and gift words of a payment that never happened. */
  unpaidCheckouts: 30,
  /** A request for a book that has been on sale again this long will not be mailed any more. */
  backInStockOnSale: 30,
  /** Sent mail holds names and addresses; the order page's timeline reads it in the meantime. */
  sentMail: 90,
  /** Reset links and temporary passwords, once used or expired. */
  spentTokens: 30,
} as const;

/** How often each process sweeps; every step is safe when several processes sweep at once. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;
const BATCH = 500;
const DAY_MS = 86_400_000;

export interface RetentionOptions {
  db: Db;
  /** CONTACT_MESSAGES_KEPT_DAYS: contact messages older than this go. */
  contactMessageDays: number;
  now?: () => Date;
}

export type RetentionCounts = Record<
  'visitorCarts' | 'unpaidCheckouts' | 'backInStockRequests' | 'contactMessages' | 'sentMail' | 'spentTokens',
  number
>;

/**
 * Deletes what the shop keeps about people only for a while. Each step deletes by id in
 * batches, so no long lock is held, and deleting a row another process deleted first changes
 * nothing: every process on every machine may sweep at the same moment.
 */
export function createDataRetention({ db, contactMessageDays, now = () => new Date() }: RetentionOptions) {
  const daysAgo = (days: number) => new Date(now().getTime() - days * DAY_MS);

  const before = (column: string, days: number) => comparedWith(db, column, '<', daysAgo(days));
  const since = (column: string, days: number) => comparedWith(db, column, '>=', daysAgo(days));

  return {
    async sweep(): Promise<RetentionCounts> {
      return {
        // Adding or changing a line touches the line, not always the cart: both must be old.
        visitorCarts: await deleteBatches(db, 'carts', (q) =>
          q
            .whereNull('userId')
            .modify(before('carts.updatedAt', KEPT_DAYS.visitorCarts))
            .whereNotExists((items) =>
              items
                .select(db.raw('1'))
                .from('cartItems')
                .where('cartItems.cartId', db.ref('carts.id'))
                .modify(since('cartItems.updatedAt', KEPT_DAYS.visitorCarts)),
            ),
        ),
        // Canceled or failed and old, never an order (a completed checkout is the order's record),
        // and holding no copies the checkout sweep has yet to give back.
        unpaidCheckouts: await deleteBatches(db, 'checkouts', (q) =>
          q
            .whereIn('status', ['canceled', 'failed'])
            .modify(before('checkouts.createdAt', KEPT_DAYS.unpaidCheckouts))
            .whereNotExists((orders) =>
              orders.select(db.raw('1')).from('orders').where('orders.stripePaymentIntentId', db.ref('checkouts.paymentIntentId')),
            )
            .whereNotExists((holds) =>
              holds.select(db.raw('1')).from('stockHolds').where('stockHolds.paymentIntentId', db.ref('checkouts.paymentIntentId')),
            ),
        ),
        backInStockRequests: await deleteBatches(db, 'backInStockRequests', (q) =>
          q.whereIn(
            'bookId',
            db('books')
              .select('id')
              .where('inStock', '>', 0)
              .where({ hidden: false })
              .modify(before('books.updatedAt', KEPT_DAYS.backInStockOnSale)),
          ),
        ),
        contactMessages: await deleteContactMessages(db, before('contactMessages.createdAt', contactMessageDays)),
        sentMail: await deleteBatches(db, 'outbox', (q) => q.whereNotNull('sentAt').modify(before('outbox.sentAt', KEPT_DAYS.sentMail))),
        spentTokens: await deleteBatches(db, 'accountTokens', (q) =>
          q
            .modify(before('accountTokens.createdAt', KEPT_DAYS.spentTokens))
            .where((spent) => spent.whereNotNull('usedAt').orWhere(comparedWith(db, 'accountTokens.expiresAt', '<', now()))),
        ),
      };
    },
  };
}

export type DataRetention = ReturnType<typeof createDataRetention>;

/** Selects up to a batch of ids, deletes them, and goes on until none is left. */
async function deleteBatches(db: Db, table: string, where: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = (await where(db(table).select('id')).orderBy('id').limit(BATCH)) as Array<{ id: number }>;
    const ids = rows.map((row) => row.id);
    if (!ids.length) return deleted;
    deleted += Number(await db(table).whereIn('id', ids).delete());
    if (ids.length < BATCH) return deleted;
  }
}

/** The audit log keeps that an operator read or answered a message, without the message. */
async function deleteContactMessages(db: Db, old: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = (await old(db('contactMessages').select('id')).orderBy('id').limit(BATCH)) as Array<{ id: number }>;
    const ids = rows.map((row) => row.id);
    if (!ids.length) return deleted;
    deleted += await db.transaction(async (trx) => {
      await trx('auditLog').whereIn('contactMessageId', ids).update({ contactMessageId: null });
      return Number(await trx('contactMessages').whereIn('id', ids).delete());
    });
    if (ids.length < BATCH) return deleted;
  }
}

/**
 * Runs the sweep on a timer. Returns a stop function that waits for a sweep in progress.
 */
export function startRetentionSweep(
  retention: Pick<DataRetention, 'sweep'>,
  log: Logger,
  intervalMs = RETENTION_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = retention
      .sweep()
      .then((counts) => {
        if (Object.values(counts).some(Boolean)) log.info({ deleted: counts }, 'retention sweep deleted what the shop no longer keeps');
      })
      .catch((err: unknown) => log.error({ err }, 'retention sweep failed; retrying on the next tick'))
      .finally(() => {
        running = undefined;
      });
  };
  // A little jitter, so processes started together do not sweep in step.
  const timer = setInterval(run, intervalMs + Math.floor(Math.random() * intervalMs * 0.2));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
