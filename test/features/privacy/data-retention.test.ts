import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { createDataRetention, KEPT_DAYS } from '../../../src/features/privacy/data-retention.ts';
import { isMySql } from '../../../src/db.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/accounts.ts';

// What the shop keeps only for a while goes by itself: each kind of record just past its time
// is deleted and one just inside it stays, and two sweeps at once delete each row once.
// On SQLite, and on MariaDB when DATABASE_URL is set. SQLite keeps a date the code wrote as a
// number and one a column's default wrote as text, so every record is tried in both forms.

const NOW = new Date('2026-11-28T12:00:00Z');
const daysBefore = (days: number, extraMs = 0) => new Date(NOW.getTime() - days * 86_400_000 - extraMs);
const OLD = (days: number) => daysBefore(days, 3_600_000);
const RECENT = (days: number) => daysBefore(days, -3_600_000);

let shop: TestShop;
let bookOnSale: number;
let bookAwaited: number;
beforeAll(async () => {
  shop = await buildTestShop();
  const books = await shop.db('books').where('inStock', '>', 0).orderBy('id').limit(2).select('id');
  bookOnSale = books[0].id;
  bookAwaited = books[1].id;
});
afterAll(async () => {
  await shop?.close();
});

type DateForm = (date: Date) => Date | string;
const asCodeWritesIt: DateForm = (date) => date;
/** What CURRENT_TIMESTAMP stores: text on SQLite, a DATETIME on MariaDB. */
const asDatabaseWritesIt: DateForm = (date) => (isMySql(shop.db) ? date : date.toISOString().slice(0, 19).replace('T', ' '));

const retention = () => createDataRetention({ db: shop.db, contactMessageDays: 365, now: () => NOW });

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [id] = await shop.db(table).insert(row);
  return Number(typeof id === 'object' ? (id as { id: number }).id : id);
}

const exists = async (table: string, id: number) => Boolean(await shop.db(table).where({ id }).first('id'));

async function customer(): Promise<number> {
  return insertId('users', { email: uniqueEmail(), passwordHash: 'x', firstName: 'Tam', lastName: 'Reed', role: 'customer' });
}

function checkout(userId: number, status: string, createdAt: Date | string, paymentIntentId: string) {
  return insertId('checkouts', {
    paymentIntentId,
    userId,
    lines: '[]',
    subtotal: 10,
    shipping: 0,
    handling: 0,
    tax: 0,
    total: 10,
    shippingAddress: '5 Elm Street',
    city: 'Bend',
    zipCode: '97701',
    status,
    createdAt,
  });
}

describe('the retention sweep', () => {
  it.each([
    ['the code', 'code', asCodeWritesIt],
    ["a column's default", 'default', asDatabaseWritesIt],
  ])('deletes each kind of record past its time and keeps what is within it, dates written as %s writes them', async (_, form, at) => {
    const userId = await customer();
    const key = (name: string) => `${name}-${form}`;
    // A visitor's carts, one abandoned, one recent, one old with a book added lately; an account's cart, old, stays.
    const abandoned = await insertId('carts', {
      visitorKey: key('v-abandoned'),
      createdAt: at(OLD(40)),
      updatedAt: at(OLD(KEPT_DAYS.visitorCarts)),
    });
    await shop
      .db('cartItems')
      .insert({ cartId: abandoned, bookId: bookOnSale, quantity: 1, createdAt: at(OLD(40)), updatedAt: at(OLD(40)) });
    const lively = await insertId('carts', {
      visitorKey: key('v-lively'),
      createdAt: at(OLD(40)),
      updatedAt: at(RECENT(KEPT_DAYS.visitorCarts)),
    });
    const addedTo = await insertId('carts', { visitorKey: key('v-added-to'), createdAt: at(OLD(40)), updatedAt: at(OLD(40)) });
    await shop
      .db('cartItems')
      .insert({ cartId: addedTo, bookId: bookOnSale, quantity: 1, createdAt: at(RECENT(1)), updatedAt: at(RECENT(1)) });
    const accountCart = await insertId('carts', { userId, createdAt: at(OLD(400)), updatedAt: at(OLD(400)) });
    // Checkouts: an old canceled one goes; a recent failed one, an old completed one, an old open one
    // and an old canceled one whose copies the checkout sweep has not yet given back stay.
    const unpaid = await checkout(userId, 'canceled', at(OLD(KEPT_DAYS.unpaidCheckouts)), key('pi_retention_unpaid'));
    const recentFailed = await checkout(userId, 'failed', at(RECENT(KEPT_DAYS.unpaidCheckouts)), key('pi_retention_recent'));
    const completed = await checkout(userId, 'completed', at(OLD(400)), key('pi_retention_completed'));
    const open = await checkout(userId, 'open', at(OLD(400)), key('pi_retention_open'));
    const holding = await checkout(userId, 'canceled', at(OLD(400)), key('pi_retention_holding'));
    await shop.db('stockHolds').insert({ paymentIntentId: key('pi_retention_holding'), bookId: bookOnSale, quantity: 1, expiresAt: NOW });
    // Back-in-stock requests: for a book on sale again for long, and for one just restocked.
    await shop
      .db('books')
      .where({ id: bookOnSale })
      .update({ updatedAt: at(OLD(KEPT_DAYS.backInStockOnSale)) });
    await shop
      .db('books')
      .where({ id: bookAwaited })
      .update({ updatedAt: at(RECENT(KEPT_DAYS.backInStockOnSale)) });
    const staleRequest = await insertId('backInStockRequests', {
      bookId: bookOnSale,
      email: key('stale@example.com'),
      inbox: key('stale@example.com'),
    });
    const freshRequest = await insertId('backInStockRequests', {
      bookId: bookAwaited,
      email: key('fresh@example.com'),
      inbox: key('fresh@example.com'),
    });
    // Contact messages, one read by an operator (the audit entry stays, without the message).
    const message = {
      firstName: 'Tam',
      lastName: 'Reed',
      email: 'tam@example.com',
      currentMember: false,
      subject: 'Hello',
      description: 'A question',
    };
    const oldMessage = await insertId('contactMessages', { ...message, createdAt: at(OLD(365)) });
    const newMessage = await insertId('contactMessages', { ...message, createdAt: at(RECENT(365)) });
    const audit = await insertId('auditLog', {
      actorId: null,
      action: 'message.read',
      contactMessageId: oldMessage,
      beforeJson: 'null',
      afterJson: 'null',
      createdAt: at(OLD(365)),
    });
    // Mail: sent long ago goes; sent lately, and unsent, stay.
    const mail = {
      toAddress: 'tam@example.com',
      subject: 'Hi',
      textBody: 'Hi Tam',
      htmlBody: '<p>Hi Tam</p>',
      attempts: 1,
      nextAttemptAt: at(OLD(400)),
      createdAt: at(OLD(400)),
    };
    const oldMail = await insertId('outbox', { ...mail, sentAt: at(OLD(KEPT_DAYS.sentMail)) });
    const newMail = await insertId('outbox', { ...mail, sentAt: at(RECENT(KEPT_DAYS.sentMail)) });
    const unsent = await insertId('outbox', { ...mail, sentAt: null });
    // Account tokens: an old used one goes; an old unexpired unused one (impossible, but kept) and a recent used one stay.
    const token = { userId, purpose: 'reset-link' };
    const spent = await insertId('accountTokens', {
      ...token,
      tokenHash: key('h1'),
      createdAt: at(OLD(KEPT_DAYS.spentTokens)),
      expiresAt: at(OLD(KEPT_DAYS.spentTokens)),
      usedAt: at(OLD(KEPT_DAYS.spentTokens)),
    });
    const recentSpent = await insertId('accountTokens', {
      ...token,
      tokenHash: key('h2'),
      createdAt: at(RECENT(KEPT_DAYS.spentTokens)),
      expiresAt: at(RECENT(1)),
      usedAt: at(RECENT(1)),
    });

    const counts = await retention().sweep();

    expect(counts).toEqual({
      visitorCarts: 1,
      unpaidCheckouts: 1,
      backInStockRequests: 1,
      contactMessages: 1,
      sentMail: 1,
      spentTokens: 1,
    });
    expect([
      await exists('carts', abandoned),
      await exists('carts', lively),
      await exists('carts', addedTo),
      await exists('carts', accountCart),
    ]).toEqual([false, true, true, true]);
    expect(await shop.db('cartItems').where({ cartId: abandoned })).toEqual([]);
    expect([
      await exists('checkouts', unpaid),
      await exists('checkouts', recentFailed),
      await exists('checkouts', completed),
      await exists('checkouts', open),
      await exists('checkouts', holding),
    ]).toEqual([false, true, true, true, true]);
    expect([await exists('backInStockRequests', staleRequest), await exists('backInStockRequests', freshRequest)]).toEqual([false, true]);
    expect([await exists('contactMessages', oldMessage), await exists('contactMessages', newMessage)]).toEqual([false, true]);
    expect(await shop.db('auditLog').where({ id: audit }).first()).toMatchObject({ contactMessageId: null, action: 'message.read' });
    expect([await exists('outbox', oldMail), await exists('outbox', newMail), await exists('outbox', unsent)]).toEqual([false, true, true]);
    expect([await exists('accountTokens', spent), await exists('accountTokens', recentSpent)]).toEqual([false, true]);

    // Nothing left to do: a second sweep deletes nothing.
    expect(Object.values(await retention().sweep()).every((n) => n === 0)).toBe(true);
  });

  it('deletes each row once when two processes sweep at the same moment', async () => {
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => insertId('carts', { visitorKey: `v-race-${i}`, createdAt: OLD(40), updatedAt: OLD(40) })),
    );
    const [first, second] = await Promise.all([retention().sweep(), retention().sweep()]);
    expect(first.visitorCarts + second.visitorCarts).toBe(ids.length);
    expect(await shop.db('carts').whereIn('id', ids)).toEqual([]);
  });
});

describe('CONTACT_MESSAGES_KEPT_DAYS', () => {
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'shop-config-'));
  it('is a year unless set, and at least 30 days', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).CONTACT_MESSAGES_KEPT_DAYS).toBe(365);
    expect(loadConfig({ DATA_DIR: dataDir(), CONTACT_MESSAGES_KEPT_DAYS: '90' }).CONTACT_MESSAGES_KEPT_DAYS).toBe(90);
    expect(() => loadConfig({ DATA_DIR: dataDir(), CONTACT_MESSAGES_KEPT_DAYS: '7' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), CONTACT_MESSAGES_KEPT_DAYS: '7' })).toThrow(/CONTACT_MESSAGES_KEPT_DAYS: at least 30/);
  });
});
