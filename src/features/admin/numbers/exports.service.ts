import type { Db } from '../../../db.ts';
import { toDecimal } from '../../../lib/money.ts';
import { Book } from '../../../models/Book.ts';
import { Order } from '../../../models/Order.ts';
import { OrderItem } from '../../../models/OrderItem.ts';
import { BOOK_FIELDS, csvCell } from '../../catalog/book-fields.ts';
import { displayStatus, statusLabel } from '../../orders/order-status.ts';
import { KEPT_STATUSES, utcDay } from './numbers.rules.ts';
import { centsSum, monthOf, onDays } from '../../../lib/portable-sql.ts';

// What the accountant downloads. Orders are read a batch at a time, so a long range of a
// busy shop never sits in memory whole; the tax report is grouped in SQL (one row per
// state and month). Money leaves as "12.99" strings made from integer cents.

export interface DayRange {
  from: string;
  to: string;
}

export const ORDER_COLUMNS = [
  'order',
  'date',
  'status',
  'customer_email',
  'ship_to_state',
  'title',
  'quantity',
  'unit_price',
  'line_total',
  'order_subtotal',
  'order_shipping',
  'order_handling',
  'order_tax',
  'order_total',
  'order_refunded',
  // Added later, at the end, so files read by column position keep working.
  'order_discount_code',
  'order_discount',
  'gift_note',
] as const;
export type OrderLineRow = Record<(typeof ORDER_COLUMNS)[number], string | number>;

/** Said in the heading of each order-wide amount: summing such a column counts an order once per book. */
export const REPEATS = '(repeats on each book row)';

/**
 * The header row of the orders file, in words a spreadsheet user reads. The order's own amounts
 * sit on each of its book rows; their headings say so, so a column total is not taken for the
 * shop's takings (add up Line total for the books, or one row per order for the rest).
 */
export const ORDER_HEADINGS: Record<(typeof ORDER_COLUMNS)[number], string> = {
  order: 'Order number',
  date: 'Placed on (UTC)',
  status: 'Status',
  customer_email: 'Customer email',
  ship_to_state: 'Ships to (state)',
  title: 'Book',
  quantity: 'Quantity',
  unit_price: 'Unit price',
  line_total: 'Line total',
  order_subtotal: `Order subtotal ${REPEATS}`,
  order_shipping: `Order shipping ${REPEATS}`,
  order_handling: `Order handling ${REPEATS}`,
  order_tax: `Order tax ${REPEATS}`,
  order_total: `Order total ${REPEATS}`,
  order_refunded: `Order refunded ${REPEATS}`,
  order_discount_code: 'Order discount code',
  order_discount: `Order discount ${REPEATS}`,
  gift_note: 'Gift note',
};

export const TAX_COLUMNS = ['state', 'month', 'taxable_sales', 'tax_collected', 'orders'] as const;
export type TaxRow = Record<(typeof TAX_COLUMNS)[number], string | number>;

export const TAX_HEADINGS: Record<(typeof TAX_COLUMNS)[number], string> = {
  state: 'State',
  month: 'Month',
  taxable_sales: 'Taxable sales',
  tax_collected: 'Tax collected',
  orders: 'Orders',
};

/** The books file: its number, every field of the book form (catalog/book-fields.ts), then what the shop counts. */
export const BOOK_COLUMNS = ['book', ...BOOK_FIELDS.map((f) => f.name), 'preordered', 'hidden'] as const;
export type BookExportRow = Record<(typeof BOOK_COLUMNS)[number], string | number>;

export const BOOK_HEADINGS: Record<(typeof BOOK_COLUMNS)[number], string> = {
  book: 'Book number',
  ...(Object.fromEntries(BOOK_FIELDS.map((f) => [f.name, f.csv])) as Record<(typeof BOOK_FIELDS)[number]['name'], string>),
  preordered: 'Copies pre-ordered, not yet sent',
  hidden: 'Hidden from shoppers',
};

const BATCH = 200;

export function createExports(db: Db) {
  return {
    /** Every book, hidden ones too, in the order they were added. */
    async *books(): AsyncGenerator<BookExportRow> {
      let after = 0;
      for (;;) {
        const books = await Book.query(db).where('id', '>', after).orderBy('id').limit(BATCH);
        if (!books.length) return;
        for (const book of books) {
          const fields = Object.fromEntries(BOOK_FIELDS.map((f) => [f.name, csvCell(f, f.read(book))]));
          yield { book: book.id, ...fields, preordered: book.preordered, hidden: book.hidden ? 'yes' : 'no' } as BookExportRow;
        }
        after = books[books.length - 1]!.id;
      }
    },

    /** One row per line of every order placed in the range (any status), oldest order first. */
    async *orderLines(range: DayRange): AsyncGenerator<OrderLineRow> {
      let after = 0;
      for (;;) {
        // Plain knex for the range filter; each row still converts as its model reads it.
        // Orders alone, walked by primary key: joining users here lets MariaDB pick a plan
        // that sorts a customer's every order for each batch.
        const orders = (
          (await db('orders')
            .modify(onDays(db, 'orders.createdAt', range.from, range.to))
            .where('orders.id', '>', after)
            .select(
              'id',
              'userId',
              'createdAt',
              'status',
              'state',
              'subtotal',
              'shipping',
              'handling',
              'tax',
              'totalAmount',
              'refundedAmount',
              'discountCode',
              'discount',
              'giftNote',
            )
            .orderBy('orders.id')
            .limit(BATCH)) as object[]
        ).map((row) => Order.fromDatabaseJson(row));
        if (!orders.length) return;
        const users = await db('users')
          .whereIn('id', [...new Set(orders.map((o) => o.userId))])
          .select<Array<{ id: number; email: string }>>('id', 'email');
        const emails = new Map(users.map((u) => [Number(u.id), u.email]));
        const items = (
          (await db('orderItems')
            .whereIn(
              'orderId',
              orders.map((o) => o.id),
            )
            .select('orderId', 'title', 'quantity', 'price')
            .orderBy('id')) as object[]
        ).map((row) => OrderItem.fromDatabaseJson(row));
        const linesOf = new Map<number, typeof items>();
        for (const item of items) linesOf.set(Number(item.orderId), [...(linesOf.get(Number(item.orderId)) ?? []), item]);
        for (const order of orders) {
          for (const item of linesOf.get(Number(order.id)) ?? []) {
            yield {
              order: Number(order.id),
              date: utcDay(order.createdAt),
              status: statusLabel(displayStatus(order.status), { totalCents: order.totalAmount, refundedCents: order.refundedAmount }),
              customer_email: emails.get(Number(order.userId)) ?? '',
              ship_to_state: order.state ?? '',
              title: item.title,
              quantity: Number(item.quantity),
              unit_price: toDecimal(item.price),
              line_total: toDecimal(item.price * Number(item.quantity)),
              order_subtotal: toDecimal(order.subtotal),
              order_shipping: toDecimal(order.shipping),
              order_handling: toDecimal(order.handling),
              order_tax: toDecimal(order.tax),
              order_total: toDecimal(order.totalAmount),
              order_refunded: toDecimal(order.refundedAmount),
              order_discount_code: order.discountCode ?? '',
              order_discount: toDecimal(order.discount),
              gift_note: order.giftNote ?? '',
            };
          }
        }
        after = Number(orders[orders.length - 1]!.id);
      }
    },

    /**
     * Sales tax per state and month over the range: paid orders that were not canceled (a
     * canceled order was refunded in full, its tax with it). Taxable sales are the books'
     * subtotal: shipping and handling are not taxed.
     */
    async salesTax(range: DayRange): Promise<TaxRow[]> {
      const month = monthOf(db, 'orders.createdAt');
      const rows = (await db('orders')
        .whereIn('orders.status', KEPT_STATUSES)
        .modify(onDays(db, 'orders.createdAt', range.from, range.to))
        .select(
          'orders.state',
          db.raw(`${month} as month`),
          db.raw(`${centsSum(db, 'orders.subtotal')} - ${centsSum(db, 'orders.discount')} as taxable`),
          db.raw(`${centsSum(db, 'orders.tax')} as tax`),
          db.raw('COUNT(*) as orders'),
        )
        .groupBy('orders.state')
        .groupByRaw(month)
        .orderBy([{ column: 'month' }, { column: 'orders.state' }])) as Array<{
        state: string | null;
        month: string;
        taxable: unknown;
        tax: unknown;
        orders: unknown;
      }>;
      return rows.map((r) => ({
        state: r.state ?? '',
        month: r.month,
        taxable_sales: toDecimal(Number(r.taxable)),
        tax_collected: toDecimal(Number(r.tax)),
        orders: Number(r.orders),
      }));
    },
  };
}

export type Exports = ReturnType<typeof createExports>;
