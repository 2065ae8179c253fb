import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, migrateLatest, type Db } from '../../src/db.ts';
import { AccountToken } from '../../src/models/AccountToken.ts';
import { AuditEntry } from '../../src/models/AuditEntry.ts';
import { Book } from '../../src/models/Book.ts';
import { Checkout } from '../../src/models/Checkout.ts';
import { ContactMessage } from '../../src/models/ContactMessage.ts';
import { Order } from '../../src/models/Order.ts';
import { OrderItem } from '../../src/models/OrderItem.ts';
import { RecoveryCode } from '../../src/models/RecoveryCode.ts';
import { Refund } from '../../src/models/Refund.ts';
import { User } from '../../src/models/User.ts';
import { createTestDatabase, usingMySql, type TestDatabase } from '../helpers/database.ts';

// Rows are written with plain knex, as the database holds them (DECIMAL text, instants the
// database stamped itself and instants the code wrote), then read through each model: services
// must see integer cents, Date instants and "2026-11-21" days on SQLite and on MariaDB alike.

let database: TestDatabase;
let db: Db;
const WRITTEN = new Date('2026-11-20T09:30:00.000Z');
const ids = { user: 0, book: 0, order: 0, item: 0, checkout: 0, refund: 0, token: 0, code: 0, audit: 0, message: 0 };

async function insert(table: string, row: Record<string, unknown>): Promise<number> {
  const [id] = await db(table).insert(row);
  return Number(id);
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  await migrateLatest(db);
  ids.user = await insert('users', { email: 'a@example.com', passwordHash: 'x', firstName: 'Ada', resetLinkSentAt: WRITTEN });
  ids.book = await insert('books', { title: 'T', author: 'A', description: 'D', price: '12.99', publishedOn: '2024-03-14' });
  ids.order = await insert('orders', {
    userId: ids.user,
    status: 'succeeded',
    subtotal: '25.00',
    shipping: '4.99',
    handling: '2.50',
    tax: '2.30',
    totalAmount: '34.79',
    shippingAddress: '1 Main St',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    estimatedDelivery: '2026-11-27',
    shippedAt: WRITTEN,
    refundedAmount: '0.05',
  });
  ids.item = await insert('orderItems', { orderId: ids.order, bookId: ids.book, title: 'T', quantity: 2, price: '1000.00' });
  ids.checkout = await insert('checkouts', {
    paymentIntentId: 'pi_1',
    userId: ids.user,
    lines: '[]',
    subtotal: '0.10',
    shipping: '7.99',
    handling: '2.50',
    tax: '0.01',
    total: '10.60',
    shippingAddress: '1 Main St',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    status: 'open',
    createdAt: WRITTEN,
  });
  ids.refund = await insert('refunds', { orderId: ids.order, amount: '0.05', requestKey: 'k1', settledAt: WRITTEN });
  ids.token = await insert('accountTokens', { userId: ids.user, purpose: 'reset-link', tokenHash: 'h', expiresAt: WRITTEN });
  ids.code = await insert('recoveryCodes', { userId: ids.user, codeHash: 'c', usedAt: WRITTEN });
  ids.audit = await insert('auditLog', { action: 'shipped', orderId: ids.order });
  ids.message = await insert('contactMessages', {
    firstName: 'A',
    lastName: 'B',
    email: 'a@example.com',
    currentMember: false,
    subject: 'S',
    description: 'D',
    readAt: WRITTEN,
  });
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

/** A Date that is a real instant close to now: what the database stamped by itself. */
function expectStampedNow(value: unknown) {
  expect(value).toBeInstanceOf(Date);
  expect(Math.abs((value as Date).getTime() - Date.now())).toBeLessThan(10 * 60_000);
}

describe(`models read on ${usingMySql ? 'MariaDB' : 'SQLite'}`, () => {
  it('Book: price in cents, the publication day as "YYYY-MM-DD"', async () => {
    const book = (await Book.query(db).findById(ids.book))!;
    expect(book.price).toBe(1299);
    expect(book.publishedOn).toBe('2024-03-14');
  });

  it('Order: every amount in cents, instants as Dates, the delivery day as "YYYY-MM-DD"', async () => {
    const order = (await Order.query(db).findById(ids.order))!;
    expect([order.subtotal, order.shipping, order.handling, order.tax, order.totalAmount, order.refundedAmount]).toEqual([
      2500, 499, 250, 230, 3479, 5,
    ]);
    expect(order.shippedAt).toEqual(WRITTEN);
    expect(order.deliveredAt).toBeNull();
    expectStampedNow(order.createdAt);
    expect(order.estimatedDelivery).toBe('2026-11-27');
  });

  it('OrderItem: price in cents, also when loaded with its order', async () => {
    expect((await OrderItem.query(db).findById(ids.item))!.price).toBe(100000);
    const order = (await Order.query(db).findById(ids.order).withGraphFetched('items.book'))!;
    expect(order.items![0]!.price).toBe(100000);
    expect(order.items![0]!.book!.price).toBe(1299);
  });

  it('Checkout: amounts in cents, createdAt a Date', async () => {
    const checkout = (await Checkout.query(db).findById(ids.checkout))!;
    expect([checkout.subtotal, checkout.shipping, checkout.handling, checkout.tax, checkout.total]).toEqual([10, 799, 250, 1, 1060]);
    expect(checkout.createdAt).toEqual(WRITTEN);
  });

  it('Refund: amount in cents, instants as Dates', async () => {
    const refund = (await Refund.query(db).findById(ids.refund))!;
    expect(refund.amount).toBe(5);
    expect(refund.settledAt).toEqual(WRITTEN);
    expectStampedNow(refund.createdAt);
  });

  it('User: instants as Dates, unset ones null', async () => {
    const user = (await User.query(db).findById(ids.user))!;
    expect(user.resetLinkSentAt).toEqual(WRITTEN);
    expect(user.temporaryPasswordSentAt).toBeNull();
    expect(user.totpEnrolledAt).toBeNull();
    expectStampedNow(user.createdAt);
  });

  it('AccountToken, RecoveryCode, AuditEntry, ContactMessage: instants as Dates', async () => {
    const token = (await AccountToken.query(db).findById(ids.token))!;
    expect(token.expiresAt).toEqual(WRITTEN);
    expect(token.usedAt).toBeNull();
    expectStampedNow(token.createdAt);
    const code = (await RecoveryCode.query(db).findById(ids.code))!;
    expect(code.usedAt).toEqual(WRITTEN);
    expectStampedNow(code.createdAt);
    expectStampedNow((await AuditEntry.query(db).findById(ids.audit))!.createdAt);
    const message = (await ContactMessage.query(db).findById(ids.message))!;
    expect(message.readAt).toEqual(WRITTEN);
    expectStampedNow(message.createdAt);
  });

  it('writes cents back as the exact DECIMAL', async () => {
    const refund = await Refund.query(db).insertAndFetch({
      orderId: ids.order,
      amount: 1999,
      reason: 'r',
      status: 'pending',
      requestKey: 'k2',
      createdAt: WRITTEN,
    });
    expect(refund.amount).toBe(1999);
    await Order.query(db).findById(ids.order).patch({ refundedAmount: 2004 });
    const stored = await db('orders').where({ id: ids.order }).first('refundedAmount');
    expect(String(stored.refundedAmount)).toBe('20.04');
    expect((await Order.query(db).findById(ids.order))!.refundedAmount).toBe(2004);
  });
});
