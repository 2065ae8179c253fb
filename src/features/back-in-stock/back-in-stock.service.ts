import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import { inboxOf } from '../../lib/email.ts';
import { isUniqueViolation } from '../../lib/unique-violation.ts';
import { Book } from '../../models/Book.ts';
import { BadRequest, Conflict, NotFound, TooManyRequests } from '../../web/errors.ts';
import type { Limits } from '../../web/throttle.ts';
import type { Mailer } from '../mail/mailer.ts';
import { recipientCaps } from '../mail/recipient-caps.ts';
import { BACK_IN_STOCK_LIMITS as LIMITS, BACK_IN_STOCK_MESSAGES as M } from './back-in-stock.schemas.ts';
import { unsubscribeTokens, type WaitingRequest } from './unsubscribe-token.ts';

const TABLE = 'backInStockRequests';

/**
 * "Email me when it's back": a parent's address kept against a Coming Soon book, one email when
 * an operator's stock edit brings the book back (announce, inside that edit's transaction),
 * and a signed link in every email that cancels the request. A book keeps one request per
 * inbox (src/lib/email.ts, inboxOf), so the spellings of one address are asked once and mailed once.
 */
export function createBackInStock({
  db,
  mailer,
  limits,
  secret,
  publicUrl,
}: {
  db: Db;
  mailer: Mailer;
  limits: Limits;
  secret: string;
  publicUrl: string;
}) {
  const caps = recipientCaps(limits);
  const byInbox = caps.perInbox('back-in-stock-address', { points: LIMITS.perAddress, windowMs: LIMITS.addressWindowMs });
  const byClient = limits('back-in-stock-client', { points: LIMITS.perClient, windowMs: LIMITS.clientWindowMs });
  const tokens = unsubscribeTokens(secret);
  const links = (request: WaitingRequest) => ({
    bookUrl: `${publicUrl}/books/${request.bookId}`,
    unsubscribeUrl: `${publicUrl}/notify/unsubscribe?token=${tokens.sign(request)}`,
  });

  return {
    /**
     * Keeps the request once per inbox (asking again, in any spelling of the address, changes
     * nothing and sends nothing) and confirms it by email with the cancel link. Either way the
     * caller shows the same answer; a recipient domain whose share of mail is spent gets the
     * request kept without the confirmation.
     */
    async request({ bookId, email }: WaitingRequest, client: string): Promise<{ title: string }> {
      // Reserved before anything else: each request may mail an address nobody has verified.
      if (!(await byInbox.reserve(email)).allowed || !(await byClient.reserve(client)).allowed) throw new TooManyRequests(M.tooMany);
      const book = await Book.query(db).findById(bookId);
      if (!book || book.hidden) throw new NotFound('Book Not Found');
      if (book.inStock > 0) throw new Conflict(M.inStock);
      const inbox = inboxOf(email);
      if (await db(TABLE).where({ bookId, inbox }).first('id')) return { title: book.title };
      const confirm = await caps.domainAllows(email);
      const added = await db
        .transaction(async (trx) => {
          await trx(TABLE).insert({ bookId, email, inbox });
          if (confirm) {
            await mailer.enqueue(trx, {
              to: email,
              template: 'back-in-stock-waiting',
              data: { title: book.title, ...links({ bookId, email }) },
              unsubscribeUrl: links({ bookId, email }).unsubscribeUrl,
            });
          }
          return confirm;
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) return false;
          throw err;
        });
      if (added) mailer.kick();
      return { title: book.title };
    },

    /** The book a cancel link is about, for the page that asks to confirm it. */
    async describe(token: string): Promise<{ title: string }> {
      const request = verified(token);
      const book = await Book.query(db).findById(request.bookId);
      return { title: book?.title ?? 'this book' };
    },

    /**
     * Forgets the request a link names, whichever spelling of the inbox it was kept under; a
     * request already mailed or cancelled is simply gone.
     */
    async cancel(token: string): Promise<{ title: string }> {
      const request = verified(token);
      await db(TABLE)
        .where({ bookId: request.bookId, inbox: inboxOf(request.email) })
        .delete();
      const book = await Book.query(db).findById(request.bookId);
      return { title: book?.title ?? 'this book' };
    },

    /**
     * Inside the transaction that brought a book back from 0 copies: one email per waiting
     * request, which is one per inbox, to the address as it was typed; then the requests are
     * forgotten, so a later return mails only those who ask again.
     * A hidden book keeps its requests until it is back on sale.
     */
    async announce(trx: Knex.Transaction, bookId: number): Promise<void> {
      const book = await Book.query(trx).findById(bookId);
      if (!book || book.hidden || book.inStock <= 0) return;
      const waiting = await trx(TABLE).where({ bookId }).select<Array<{ id: number; email: string }>>('id', 'email').forUpdate();
      for (const { email } of waiting) {
        const { bookUrl, unsubscribeUrl } = links({ bookId, email });
        await mailer.enqueue(trx, {
          to: email,
          template: 'back-in-stock',
          data: { title: book.title, bookUrl, unsubscribeUrl },
          unsubscribeUrl,
        });
      }
      if (waiting.length)
        await trx(TABLE)
          .whereIn(
            'id',
            waiting.map((row) => row.id),
          )
          .delete();
    },

    /** Asks the sender to deliver what announce queued, once its transaction has committed. */
    deliver(): void {
      mailer.kick();
    },

    /** Requests waiting per book, for the back office. */
    async waitingFor(bookIds: number[]): Promise<Map<number, number>> {
      if (bookIds.length === 0) return new Map();
      const rows: Array<{ bookId: number; waiting: number | string }> = await db(TABLE)
        .whereIn('bookId', bookIds)
        .groupBy('bookId')
        .select('bookId')
        .count({ waiting: '*' });
      return new Map(rows.map((row) => [Number(row.bookId), Number(row.waiting)]));
    },
  };

  function verified(token: string): WaitingRequest {
    const request = tokens.verify(token);
    if (!request) throw new BadRequest(M.badLink);
    return request;
  }
}

export type BackInStock = ReturnType<typeof createBackInStock>;

/** What the back office's stock edits need: the announcement inside the edit, the delivery after it. */
export type Restocking = Pick<BackInStock, 'announce' | 'deliver' | 'waitingFor'>;
