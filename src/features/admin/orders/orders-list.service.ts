import type { Db } from '../../../db.ts';
import { toDecimal } from '../../../lib/money.ts';
import { Order } from '../../../models/Order.ts';
import { displayStatus, statusBadge } from '../../orders/order-status.ts';
import { containsPattern, PAGE_SIZE, pageWindow, type Page } from '../../../lib/paging.ts';

/**
 * The status filter's choices and the order status each one means ('paid' is a succeeded
 * payment waiting to be packed; 'preorders' are paid and wait for their books to come out).
 */
export const STATUS_FILTERS = {
  all: null,
  preorders: 'preordered',
  paid: 'succeeded',
  shipped: 'shipped',
  delivered: 'delivered',
  canceled: 'canceled',
} as const;
export type StatusFilter = keyof typeof STATUS_FILTERS;

export interface OrderQuery {
  status: StatusFilter;
  /** An order number ("42" or "#42") or part of the customer's email. */
  search: string;
  /** Only orders holding this book; undefined: every title. */
  bookId?: number | undefined;
  page: number;
}

export interface OrderRow {
  id: number;
  createdAt: Date;
  customerName: string;
  email: string;
  itemCount: number;
  total: string;
  status: { label: string; tone: string };
  /** What the parent wrote for a gift (a note, a name for the slip, or both); null when it is not one. */
  gift: { note: string | null; recipient: string | null } | null;
}

export function createOrdersList(db: Db) {
  function matching({ status, search, bookId }: OrderQuery) {
    // An erased account's orders stay, without the person.
    const query = db('orders').leftJoin('users', 'users.id', 'orders.userId');
    const wanted = STATUS_FILTERS[status];
    if (wanted) query.where('orders.status', wanted);
    if (bookId !== undefined)
      query.whereExists((lines) =>
        lines.select(db.raw('1')).from('orderItems').where('orderItems.orderId', db.ref('orders.id')).where('orderItems.bookId', bookId),
      );
    if (search) {
      const number = /^#?\s*(\d{1,9})$/.exec(search);
      // "#42" can only be an order number; a bare "42" may also be part of an address.
      const byEmail = !search.startsWith('#');
      query.where((where) => {
        if (number) where.orWhere('orders.id', Number(number[1]));
        if (byEmail) where.orWhereRaw("lower(users.email) like ? escape '!'", [containsPattern(search)]);
        if (!number && !byEmail) where.whereRaw('1 = 0');
      });
    }
    return query;
  }

  return {
    /** The title a list is narrowed to, or null when no such book exists. */
    async bookTitle(bookId: number): Promise<string | null> {
      const book: { title: string } | undefined = await db('books').where({ id: bookId }).first('title');
      return book?.title ?? null;
    },

    /** Newest first, one page at a time; a page past the end answers with the last page. */
    async list(input: OrderQuery): Promise<Page<OrderRow>> {
      const counted = (await matching(input).count({ n: '*' }).first()) as { n: number | string };
      const total = Number(counted.n);
      const { page, pageCount, offset } = pageWindow(input.page, total);
      const rows = await matching(input)
        .select(
          'orders.id',
          'orders.status',
          'orders.totalAmount',
          'orders.refundedAmount',
          'orders.createdAt',
          'users.firstName',
          'users.lastName',
          'users.email',
        )
        .select('orders.giftNote', 'orders.giftRecipient')
        .select(db('orderItems').sum('quantity').where('orderItems.orderId', db.ref('orders.id')).as('itemCount'))
        .orderBy([
          { column: 'orders.createdAt', order: 'desc' },
          { column: 'orders.id', order: 'desc' },
        ])
        .limit(PAGE_SIZE)
        .offset(offset);
      // A joined list is plain knex; each row still converts as the Order model reads it.
      return {
        rows: rows.map((row: object) => toRow(Order.fromDatabaseJson(row) as Order & Record<string, unknown>)),
        page,
        pageCount,
        total,
      };
    },
  };
}

export type OrdersList = ReturnType<typeof createOrdersList>;

function toRow(row: Order & Record<string, unknown>): OrderRow {
  const status = displayStatus(row.status);
  return {
    id: row.id,
    createdAt: row.createdAt,
    customerName: row.email ? `${String(row.firstName)} ${String(row.lastName)}` : 'Deleted account',
    email: (row.email as string | null) ?? '',
    itemCount: Number(row.itemCount ?? 0),
    total: toDecimal(row.totalAmount),
    status: statusBadge(status, { totalCents: row.totalAmount, refundedCents: row.refundedAmount }),
    // The same test as the gift slip's: a note or a name makes an order a gift.
    gift: row.giftNote || row.giftRecipient ? { note: row.giftNote || null, recipient: row.giftRecipient || null } : null,
  };
}
