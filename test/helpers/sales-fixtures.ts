import { toDate } from '../../src/lib/dates.ts';
import { toCents, toDecimal } from '../../src/lib/money.ts';
import type { TestShop } from './app.ts';
import { insertCustomer, insertOrder } from './admin-fixtures.ts';
import { placePaidOrder } from './orders.ts';

// Orders at known times and amounts for the numbers and the exports, around today (UTC), so
// the tests run any day: on both sides of midnight and of the 30-day window's first day,
// kept, canceled and refunded, one with a title a spreadsheet would run as a formula, and
// one through the real checkout (its created_at is the column's default: text on SQLite).

const DAY = 86_400_000;
const today = Date.parse(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
/** `days` days before today, at hh:mm:ss (UTC). */
export const at = (days: number, time = '10:00:00.000') =>
  new Date(Date.parse(`${new Date(today - days * DAY).toISOString().slice(0, 10)}T${time}Z`));
/** 'YYYY-MM-DD', `days` days before today (UTC). */
export const day = (days: number) => new Date(today - days * DAY).toISOString().slice(0, 10);

export interface Made {
  id: number;
  createdAt: Date;
  status: string;
  state: string | null;
  email: string;
  subtotal: string;
  tax: string;
  total: string;
  lines: { title: string; quantity: number; price: string }[];
}

export const kept = (o: Made) => ['preordered', 'succeeded', 'shipped', 'delivered'].includes(o.status);
export const cents = (orders: Made[]) => orders.reduce((n, o) => n + toCents(o.total), 0);
export const within = (o: Made, fromDay: string, toDay: string) => {
  const d = o.createdAt.toISOString().slice(0, 10);
  return d >= fromDay && d <= toDay;
};

/** Makes the orders and refunds; returns every order made, as the tests expect to see it. */
export async function makeSales(shop: TestShop): Promise<Made[]> {
  const made: Made[] = [];
  const books = (await shop.db('books').orderBy('id').select<{ id: number }[]>('id')).map((b) => b.id);

  async function order(fields: Omit<Made, 'id' | 'email'> & { shipping?: string; refunded?: string; email?: string }): Promise<Made> {
    const customer = await insertCustomer(shop.db, fields.email ? { email: fields.email } : {});
    const bookOf: Record<string, number> = { 'Moon Book': books[1]!, 'Sun Book': books[2]!, 'Star Book': books[3]! };
    const id = await insertOrder(shop.db, {
      userId: customer.id,
      status: fields.status,
      createdAt: fields.createdAt,
      total: fields.total,
      amounts: { subtotal: fields.subtotal, tax: fields.tax, shipping: fields.shipping ?? '0.00', refunded: fields.refunded ?? '0.00' },
      address: { shippingAddress: '1 Elm Street', city: 'Springfield', state: fields.state, zipCode: '98101' },
      lines: fields.lines.map((l) => ({ ...l, bookId: bookOf[l.title] ?? books[4]! })),
    });
    const row = { ...fields, id, email: customer.email };
    made.push(row);
    return row;
  }

  async function refund(orderId: number, amount: string, settledAt: Date, status = 'succeeded') {
    await shop
      .db('refunds')
      .insert({ orderId, amount, reason: 'test', status, requestKey: `k-${orderId}-${amount}-${status}`, createdAt: settledAt, settledAt });
  }

  await order({
    createdAt: at(2),
    status: 'succeeded',
    state: 'OR',
    subtotal: '25.98',
    shipping: '5.99',
    tax: '0.00',
    total: '31.97',
    lines: [{ title: 'Moon Book', quantity: 2, price: '12.99' }],
  });
  await order({
    createdAt: at(2, '23:59:59.000'),
    status: 'shipped',
    state: 'WA',
    subtotal: '29.98',
    shipping: '5.99',
    tax: '3.07',
    total: '39.04',
    lines: [
      { title: 'Moon Book', quantity: 1, price: '12.99' },
      { title: 'Sun Book', quantity: 1, price: '16.99' },
    ],
  });
  const c = await order({
    createdAt: at(5),
    status: 'delivered',
    state: 'WA',
    subtotal: '50.97',
    tax: '5.23',
    total: '56.20',
    refunded: '5.00',
    lines: [{ title: 'Sun Book', quantity: 3, price: '16.99' }],
  });
  const d = await order({
    createdAt: at(5, '08:00:00.000'),
    status: 'canceled',
    state: 'CA',
    subtotal: '51.96',
    shipping: '5.99',
    tax: '2.05',
    total: '60.00',
    refunded: '60.00',
    lines: [{ title: 'Moon Book', quantity: 4, price: '12.99' }],
  });
  await order({
    createdAt: at(1, '00:00:00.000'),
    status: 'succeeded',
    state: 'OR',
    subtotal: '10.00',
    tax: '0.00',
    total: '10.00',
    lines: [{ title: 'Star Book', quantity: 1, price: '10.00' }],
  });
  await order({
    createdAt: at(29, '00:00:00.000'),
    status: 'succeeded',
    state: 'OR',
    subtotal: '10.00',
    tax: '0.00',
    total: '10.00',
    lines: [{ title: 'Star Book', quantity: 1, price: '10.00' }],
  });
  const e = await order({
    createdAt: at(30, '23:59:59.999'),
    status: 'succeeded',
    state: 'WA',
    subtotal: '9.99',
    shipping: '5.99',
    tax: '1.01',
    total: '16.99',
    lines: [{ title: 'Star Book', quantity: 1, price: '9.99' }],
  });
  await order({
    createdAt: at(120),
    status: 'succeeded',
    state: 'WA',
    subtotal: '100.00',
    tax: '10.00',
    total: '110.00',
    lines: [{ title: 'Star Book', quantity: 10, price: '10.00' }],
  });
  // Text a spreadsheet would run as a formula, in an order that counts for nothing.
  await order({
    createdAt: at(0, '00:30:00.000'),
    status: 'canceled',
    state: 'OR',
    subtotal: '12.99',
    tax: '0.00',
    total: '12.99',
    email: `-2+3@example.com`,
    lines: [{ title: '=HYPERLINK("https://example.com","Click")', quantity: 1, price: '12.99' }],
  });

  await refund(d.id, '60.00', at(4));
  await refund(c.id, '5.00', at(3));
  await refund(c.id, '1.00', at(3), 'pending');
  await refund(e.id, '2.00', at(40));

  // One order through the real checkout: its created_at is the column's default (text on SQLite).
  const paidOrderId = (await placePaidOrder(shop, { bookId: books[0]!, quantity: 2 })).orderId;
  const paid = await shop.db('orders').where({ id: paidOrderId }).first();
  const items = await shop.db('orderItems').where({ orderId: paidOrderId });
  made.push({
    id: paidOrderId,
    createdAt: toDate(paid.createdAt),
    status: 'succeeded',
    state: paid.state,
    email: '',
    subtotal: toDecimal(toCents(paid.subtotal)),
    tax: toDecimal(toCents(paid.tax)),
    total: toDecimal(toCents(paid.totalAmount)),
    lines: items.map((i: { title: string; quantity: number; price: string }) => ({
      title: i.title,
      quantity: i.quantity,
      price: toDecimal(toCents(i.price)),
    })),
  });
  return made;
}
