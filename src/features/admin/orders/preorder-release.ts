import type { Knex } from 'knex';
import type { Db } from '../../../db.ts';
import type { Logger } from '../../../log.ts';
import { Book } from '../../../models/Book.ts';
import { Order } from '../../../models/Order.ts';
import { OrderItem } from '../../../models/OrderItem.ts';
import { Refund } from '../../../models/Refund.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';
import { bumpCatalogueVersion } from '../../catalog/catalogue-version.ts';
import { mayShip } from '../../catalog/preorder.rules.ts';
import { lockForSale, saleTransaction } from '../../checkout/lock-order.ts';
import { estimatedDelivery } from '../../checkout/order-completion.ts';
import { requiredStatuses } from '../../orders/order-transitions.ts';
import { fulfilmentSnapshot } from './order-lock.ts';

// Publication day. A paid pre-order waits as 'preordered' until every title it pre-ordered is
// out (the shop's day, SHOP_TIME_ZONE, has reached each publication date) and the shelf holds
// its copies; then its copies are served from stock and it moves to To pack ('succeeded').
// Orders are served oldest first: an order the shelf cannot cover waits, and so does every
// later order for any of its titles, so nobody jumps the queue when a few more copies come in.
// An order still waiting for a later title holds up nobody: it is not in the queue yet.
//
// It runs on the once-a-minute sweep and right after an operator enters stock. Several
// processes may run it at once: each order is served in its own transaction, under its own
// row's lock, and only while it is still 'preordered', so no order is ever served twice.

export type ReleaseOutcome =
  /** Served from stock and moved to To pack. */
  | 'released'
  /** A title it waits for is not out yet (its date moved since the order was read). */
  | 'not-out'
  /** The shelf cannot cover every pre-ordered line: it waits, and the queue behind it waits. */
  | 'short'
  /** No longer a waiting pre-order (served by another process, canceled, or being canceled). */
  | 'gone';

/** What the audit entry keeps of each served line, and the order timeline shows. */
export interface ServedLine {
  bookId: number;
  title: string;
  quantity: number;
}

export interface ReleaseDeps {
  db: Db;
  /** The shop's calendar day, "2026-11-28" (services.shopDay). */
  shopDay: () => string;
}

/** Copies each book must give, an order's pre-ordered lines added up per book. */
function copiesPerBook(lines: OrderItem[]): Map<number, number> {
  const copies = new Map<number, number>();
  for (const line of lines) copies.set(line.bookId, (copies.get(line.bookId) ?? 0) + Number(line.quantity));
  return copies;
}

export function createPreorderRelease({ db, shopDay }: ReleaseDeps) {
  /** One order, in one sale transaction. */
  async function serve(trx: Knex.Transaction, orderId: number, today: string): Promise<ReleaseOutcome> {
    // The order's row first, as a cancel takes it before putting copies back, then its books
    // in the lock order (lock-order.ts): a cancel and a release never wait on each other in a circle.
    const order = await Order.query(trx).findById(orderId).forUpdate();
    if (!order || !requiredStatuses('released').includes(order.status)) return 'gone';
    // A cancel whose refund is still with the provider owns this order (as for shipping it).
    const canceling = await Refund.query(trx).where({ orderId, status: 'pending' }).where('requestKey', 'like', 'cancel:%').first();
    if (canceling) return 'gone';
    const lines = (await OrderItem.query(trx).where({ orderId }).orderBy('id')).filter((item) => Boolean(item.preorder));
    const wanted = copiesPerBook(lines);
    await lockForSale(trx, { bookIds: [...wanted.keys()] });
    const books = new Map((await Book.query(trx).findByIds([...wanted.keys()])).map((book) => [book.id, book]));
    const dates = lines.map((line) => ({ preorder: true, publishedOn: books.get(line.bookId)?.publishedOn ?? today }));
    if (!mayShip(dates, today)) return 'not-out';
    for (const [bookId, copies] of wanted) if ((books.get(bookId)?.inStock ?? 0) < copies) return 'short';

    for (const [bookId, copies] of wanted) {
      // Conditional, as every stock change is: never below zero, even were the lock not held.
      const taken = await trx('books')
        .where({ id: bookId })
        .where('inStock', '>=', copies)
        .update({
          inStock: trx.raw('in_stock - ?', [copies]),
          preordered: trx.raw('CASE WHEN preordered > ? THEN preordered - ? ELSE 0 END', [copies, copies]),
        });
      if (taken !== 1) throw new Error(`book ${bookId} lost copies under its lock while serving order ${orderId}`);
    }
    const delivery = estimatedDelivery(new Date());
    const moved = await Order.query(trx)
      .findById(orderId)
      .whereIn('status', requiredStatuses('released'))
      .patch({ status: 'succeeded', estimatedDelivery: delivery });
    if (moved !== 1) throw new Error(`order ${orderId} changed under its lock while being served`);
    const served: ServedLine[] = lines.map((line) => ({ bookId: line.bookId, title: line.title, quantity: Number(line.quantity) }));
    await writeAudit(trx, {
      actorId: null,
      action: 'released',
      orderId,
      before: fulfilmentSnapshot(order),
      after: { ...fulfilmentSnapshot(order), status: 'succeeded', estimatedDelivery: delivery, served },
    });
    if (wanted.size > 0) await bumpCatalogueVersion(trx);
    return 'released';
  }

  /** Waiting pre-orders whose every title is out today, oldest first, with the books they wait for. */
  async function due(today: string): Promise<Array<{ id: number; bookIds: number[] }>> {
    const rows: Array<{ id: number; bookId: number }> = await db('orders')
      .join('orderItems', 'orderItems.orderId', 'orders.id')
      .where('orders.status', 'preordered')
      .where('orderItems.preorder', true)
      .whereNotExists((later) =>
        later
          .select(db.raw('1'))
          .from('orderItems as waiting')
          .join('books', 'books.id', 'waiting.bookId')
          .where('waiting.orderId', db.ref('orders.id'))
          .where('waiting.preorder', true)
          .where('books.publishedOn', '>', today),
      )
      .orderBy([
        { column: 'orders.createdAt', order: 'asc' },
        { column: 'orders.id', order: 'asc' },
      ])
      .select('orders.id', 'orderItems.bookId');
    const orders = new Map<number, number[]>();
    for (const row of rows) {
      const bookIds = orders.get(Number(row.id)) ?? [];
      orders.set(Number(row.id), [...bookIds, Number(row.bookId)]);
    }
    return [...orders].map(([id, bookIds]) => ({ id, bookIds }));
  }

  return {
    /**
     * Serves every waiting pre-order that can be served today, oldest first; returns how many
     * moved to To pack. Safe to run in several processes at once.
     */
    async release(): Promise<number> {
      const today = shopDay();
      const waitingTitles = new Set<number>();
      let released = 0;
      for (const order of await due(today)) {
        if (order.bookIds.some((id) => waitingTitles.has(id))) {
          for (const id of order.bookIds) waitingTitles.add(id);
          continue;
        }
        const outcome = await saleTransaction(db, (trx) => serve(trx, order.id, today));
        if (outcome === 'released') released++;
        if (outcome === 'short') for (const id of order.bookIds) waitingTitles.add(id);
      }
      return released;
    },
  };
}

export type PreorderRelease = ReturnType<typeof createPreorderRelease>;

/** A way an operator sets a title's shelf count (books.service.ts): its first argument is the book. */
type StockEntry = (id: number, ...rest: never[]) => Promise<void>;

/**
 * The book admin, with stock entered serving the waiting pre-orders first: once the operator's
 * change has committed, the release runs, so the copies owed to pre-orders (never on sale to
 * anyone else: copiesForSale) go to them before the rest is sold. The operator's change stands
 * if the release fails; the failure is logged and the next sweep tries again.
 */
export function servePreordersAfterStock<T extends { setStock: StockEntry; update: StockEntry }>(
  books: T,
  { release, log }: { release: PreorderRelease; log: Logger },
): T {
  const after = <F extends StockEntry>(entry: F): F =>
    (async (id: number, ...rest: never[]) => {
      await entry(id, ...rest);
      await release.release().catch((err: unknown) => {
        log.error({ err, bookId: id }, 'could not serve pre-orders after a stock entry; the next sweep tries again');
      });
    }) as F;
  return { ...books, setStock: after(books.setStock), update: after(books.update) };
}
