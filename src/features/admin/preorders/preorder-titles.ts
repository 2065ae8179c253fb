import type { Db } from '../../../db.ts';
import type { Cents } from '../../../lib/money.ts';
import { Book } from '../../../models/Book.ts';
import { isForthcoming, preorderCopiesLeft } from '../../catalog/preorder.rules.ts';
import { centsSum } from '../../../lib/portable-sql.ts';

// The operator's pre-orders, per title, to size the print run: every title that takes
// pre-orders or has taken some, with what its waiting pre-orders add up to. A pre-order waits
// as a 'preordered' order until its books are out and served from stock (preorder-release.ts);
// those already served are counted apart, as copies sent to packing.

export interface PreorderTitle {
  id: number;
  title: string;
  author: string;
  /** "2027-03-02". */
  publishedOn: string;
  /** The shop's day has not reached the publication date yet. */
  forthcoming: boolean;
  takesPreorders: boolean;
  /** The first print run's limit; null: no limit. */
  limit: number | null;
  /** Pre-order copies still to be had under the limit (held by payments in progress count as taken); null: no limit. */
  copiesLeft: number | null;
  /** Copies in paid pre-orders still waiting for the book. */
  copies: number;
  /** Parents (accounts) with a waiting pre-order for the title. */
  parents: number;
  /** What those pre-ordered lines were paid: the books' prices, before discounts, shipping and tax. */
  money: Cents;
  /** Waiting pre-orders holding the title. */
  orders: number;
  /** Pre-ordered copies already served from stock and sent to packing (or shipped). */
  served: number;
}

interface Figures {
  bookId: number | string;
  copies: unknown;
  parents: unknown;
  orders: unknown;
  money: unknown;
}

/** Order statuses of a pre-order served from stock and not canceled. */
const SERVED_STATUSES = ['succeeded', 'shipped', 'delivered'];

export function createPreorderTitles(db: Db) {
  const int = (value: unknown) => Number(value ?? 0);

  /** Pre-ordered lines of orders in `statuses`, summed per title. */
  async function figures(statuses: string[]): Promise<Map<number, Figures>> {
    const rows: Figures[] = await db('orderItems')
      .join('orders', 'orders.id', 'orderItems.orderId')
      .where('orderItems.preorder', true)
      .whereIn('orders.status', statuses)
      .groupBy('orderItems.bookId')
      .select(
        'orderItems.bookId',
        db.raw('SUM(order_items.quantity) as copies'),
        db.raw('COUNT(DISTINCT orders.user_id) as parents'),
        db.raw('COUNT(DISTINCT orders.id) as orders'),
        db.raw(`${centsSum(db, 'orderItems.price', 'orderItems.quantity')} as money`),
      );
    return new Map(rows.map((row) => [Number(row.bookId), row]));
  }

  return {
    /** Forthcoming titles first, by publication date; then the titles already out, latest first. */
    async list(today: string): Promise<PreorderTitle[]> {
      const books = await Book.query(db)
        .where('takesPreorders', true)
        .orWhereExists((lines) =>
          lines.select(db.raw('1')).from('orderItems').where('orderItems.bookId', db.ref('books.id')).where('orderItems.preorder', true),
        )
        .select('id', 'title', 'author', 'publishedOn', 'takesPreorders', 'preorderLimit', 'preordered');
      const [waiting, served] = await Promise.all([figures(['preordered']), figures(SERVED_STATUSES)]);
      const titles = books.map((book): PreorderTitle => {
        const publishedOn = book.publishedOn;
        const open = waiting.get(book.id);
        const counts = {
          preorderLimit: book.preorderLimit === null ? null : Number(book.preorderLimit),
          preordered: Number(book.preordered),
        };
        return {
          id: book.id,
          title: book.title,
          author: book.author,
          publishedOn,
          forthcoming: isForthcoming(publishedOn, today),
          takesPreorders: Boolean(book.takesPreorders),
          limit: counts.preorderLimit,
          copiesLeft: preorderCopiesLeft(counts),
          copies: int(open?.copies),
          parents: int(open?.parents),
          money: int(open?.money),
          orders: int(open?.orders),
          served: int(served.get(book.id)?.copies),
        };
      });
      return titles.sort(
        (a, b) =>
          Number(b.forthcoming) - Number(a.forthcoming) ||
          (a.forthcoming ? a.publishedOn.localeCompare(b.publishedOn) : b.publishedOn.localeCompare(a.publishedOn)) ||
          a.id - b.id,
      );
    },
  };
}

export type PreorderTitles = ReturnType<typeof createPreorderTitles>;
