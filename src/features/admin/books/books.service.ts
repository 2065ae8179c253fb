import { coverImage, coverSrc, type CoverImage } from '../../catalog/cover.ts';
import type { Db } from '../../../db.ts';
import { isUniqueViolation } from '../../../lib/unique-violation.ts';
import { toDecimal } from '../../../lib/money.ts';
import { Book } from '../../../models/Book.ts';
import { BadRequest, NotFound } from '../../../web/errors.ts';
import { bumpCatalogueVersion } from '../../catalog/catalogue-version.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';
import type { BookField, BookInput } from './books.schemas.ts';
import { BOOK_FIELDS } from '../../catalog/book-fields.ts';
import { isForthcoming } from '../../catalog/preorder.rules.ts';
import { preorderProblem } from './preorder-settings.ts';
import { PAGE_SIZE, pageWindow, type Page } from '../../../lib/paging.ts';
import { heldCopies, setShelfStock } from './shelf-stock.ts';
import type { Restocking } from '../../back-in-stock/back-in-stock.service.ts';
import type { PublicationMoves } from '../../orders/preorder-notices.ts';
import type { Knex } from 'knex';
import type { PartialModelObject } from 'objection';

// The back office's books: the list (all of them, hidden ones too), adding, editing, and taking
// a book off sale. Nothing is ever deleted: order lines point at their books.

export type BookStatus = 'on-sale' | 'pre-order' | 'coming-soon' | 'hidden';
export const STATUS_LABELS: Record<BookStatus, string> = {
  'on-sale': 'On sale',
  'pre-order': 'Taking pre-orders',
  'coming-soon': 'Coming soon',
  hidden: 'Hidden',
};

export interface BookRow {
  id: number;
  title: string;
  author: string;
  price: string;
  cover: CoverImage;
  /** Copies on the shelf, held ones included: the number the operator edits. */
  shelf: number;
  held: number;
  /** Parents waiting for an email when the book is back. */
  waiting: number;
  status: BookStatus;
}

export const duplicateIsbn = 'Another book already has this ISBN.';

/** A form value refused by the database (a unique key) or by a rule of the stored book: shown beside its field. */
function fieldError(field: BookField, message: string): BadRequest {
  return new BadRequest(message, { field });
}

/** What shoppers see of the book on `today`, the shop's day: a forthcoming title taking pre-orders says so first. */
export function statusOf(book: Pick<Book, 'hidden' | 'inStock' | 'takesPreorders' | 'publishedOn'>, today: string): BookStatus {
  if (book.hidden) return 'hidden';
  if (book.takesPreorders && isForthcoming(book.publishedOn, today)) return 'pre-order';
  return book.inStock > 0 ? 'on-sale' : 'coming-soon';
}

const SAVED_TOGETHER = BOOK_FIELDS.filter((f) => !('savedApart' in f && f.savedApart));

/** The form's values as the book's columns, every field but the shelf count (saved by shelve). */
function columns(input: BookInput): PartialModelObject<Book> {
  return Object.fromEntries(SAVED_TOGETHER.map((f) => [f.name, input[f.name] ?? null]));
}

function snapshot(book: Book) {
  // The audit log keeps amounts as the API writes them.
  return { ...columns(formValues(book)), price: toDecimal(book.price), hidden: Boolean(book.hidden) };
}

/** A stored book as the form's typed values (stock: the available copies; the caller adds held ones). */
function formValues(book: Book): BookInput {
  return Object.fromEntries(BOOK_FIELDS.map((f) => [f.name, f.read(book) ?? undefined])) as BookInput;
}

/** `shopDay`: the shop's calendar day (services.shopDay), which decides whether a title is forthcoming. */
export function createBookAdmin(db: Db, restocking: Restocking, shopDay: () => string, preorderNotices: PublicationMoves) {
  /** The shelf count, and the parents waiting told inside the same transaction when it brings the book back. */
  async function shelve(trx: Knex.Transaction, id: number, shelf: number, actorId: number, thenEdit?: () => Promise<void>): Promise<void> {
    const { before, after } = await setShelfStock(trx, id, shelf, actorId);
    await thenEdit?.();
    // After the other fields, so the email names the book as it now reads.
    if (before.inStock === 0 && after.inStock > 0) await restocking.announce(trx, id);
  }

  async function saving<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('isbn', duplicateIsbn);
      throw err;
    }
  }

  return {
    /** Newest additions last, as the catalogue orders them; `lowStock` keeps books on sale with at most that many copies left. */
    async list({ page: requested, lowStock }: { page: number; lowStock?: number | undefined }): Promise<Page<BookRow>> {
      const matching = () => {
        const query = Book.query(db);
        if (lowStock !== undefined) query.where('inStock', '<=', lowStock).where('hidden', false);
        return query;
      };
      const total = await matching().resultSize();
      const { page, pageCount, offset } = pageWindow(requested, total);
      const books = await matching()
        .orderBy(lowStock !== undefined ? [{ column: 'inStock' }, { column: 'id' }] : [{ column: 'id' }])
        .limit(PAGE_SIZE)
        .offset(offset);
      const ids = books.map((b) => b.id);
      const held = await heldCopies(db, ids);
      const waiting = await restocking.waitingFor(ids);
      const today = shopDay();
      const rows = books.map((book) => {
        const onHold = held.get(book.id) ?? 0;
        return {
          id: book.id,
          title: book.title,
          author: book.author,
          price: toDecimal(book.price),
          cover: coverImage(book),
          shelf: book.inStock + onHold,
          held: onHold,
          waiting: waiting.get(book.id) ?? 0,
          status: statusOf(book, today),
        };
      });
      return { rows, page, pageCount, total };
    },

    /** The edit form's values, its stock being the shelf count. */
    async find(id: number): Promise<{
      id: number;
      title: string;
      imageUrl: string | null;
      values: BookInput;
      held: number;
      waiting: number;
      status: BookStatus;
    }> {
      const book = await Book.query(db).findById(id);
      if (!book) throw new NotFound('Page Not Found');
      const held = (await heldCopies(db, [id])).get(id) ?? 0;
      const values = formValues(book);
      return {
        id,
        title: book.title,
        imageUrl: coverSrc(book),
        values: { ...values, stock: book.inStock + held },
        held,
        waiting: (await restocking.waitingFor([id])).get(id) ?? 0,
        status: statusOf(book, shopDay()),
      };
    },

    async create(input: BookInput, actorId: number): Promise<number> {
      const problem = preorderProblem(input, null, shopDay());
      if (problem) throw fieldError(problem.field, problem.message);
      return saving(() =>
        db.transaction(async (trx) => {
          const book = await Book.query(trx).insertAndFetch({ ...columns(input), inStock: input.stock, hidden: false });
          await writeAudit(trx, {
            actorId,
            action: 'book.created',
            bookId: book.id,
            before: null,
            after: { ...snapshot(book), inStock: input.stock },
          });
          await bumpCatalogueVersion(trx);
          return book.id;
        }),
      );
    },

    /** Every field; the stock is the shelf count, checked against the copies held (shelf-stock.ts). */
    async update(id: number, input: BookInput, actorId: number): Promise<void> {
      await saving(() =>
        db.transaction(async (trx) => {
          await shelve(trx, id, input.stock, actorId, async () => {
            // Locked by shelve: the copies pre-ordered cannot grow past a new limit while it is checked.
            const book = (await Book.query(trx).findById(id))!;
            const problem = preorderProblem(input, book, shopDay());
            if (problem) throw fieldError(problem.field, problem.message);
            await Book.query(trx).findById(id).patch(columns(input));
            const after = (await Book.query(trx).findById(id))!;
            await writeAudit(trx, { actorId, action: 'book.edited', bookId: id, before: snapshot(book), after: snapshot(after) });
            await bumpCatalogueVersion(trx);
            // A moved publication date is told to every parent whose paid pre-order waits for the title.
            await preorderNotices.publicationMoved(trx, { bookId: id, from: book.publishedOn, to: after.publishedOn });
          });
        }),
      );
      restocking.deliver();
    },

    async setStock(id: number, shelf: number, actorId: number): Promise<void> {
      await db.transaction((trx) => shelve(trx, id, shelf, actorId));
      restocking.deliver();
    },

    /** Off sale or back on it; a hidden book keeps its stock, its orders and its page in the back office. */
    async setHidden(id: number, hidden: boolean, actorId: number): Promise<void> {
      await db.transaction(async (trx) => {
        const book = await Book.query(trx).findById(id).forUpdate();
        if (!book) throw new NotFound('Page Not Found');
        if (Boolean(book.hidden) === hidden) return;
        await Book.query(trx).findById(id).patch({ hidden });
        await writeAudit(trx, {
          actorId,
          action: hidden ? 'book.hidden' : 'book.unhidden',
          bookId: id,
          before: { hidden: !hidden },
          after: { hidden },
        });
        await bumpCatalogueVersion(trx);
        // Restocked while hidden: its parents hear when shoppers can see it again.
        if (!hidden) await restocking.announce(trx, id);
      });
      restocking.deliver();
    },
  };
}

export type BookAdmin = ReturnType<typeof createBookAdmin>;
