// The operator's side of pre-orders: the per-title view to size the print run (copies,
// parents, money taken of the waiting pre-orders), each title's orders through the orders
// list's Pre-orders and title filters, the status page's count of open pre-orders, and a
// pre-order counted as money taken in the numbers. On SQLite, and on MariaDB when
// DATABASE_URL is set.
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCents } from '../../../../src/lib/money.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { insertCustomer, insertOrder, textOf } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { makeForthcoming } from '../../../helpers/preorder-titles.ts';
import { insertPreorder } from '../../../helpers/preorders.ts';

const TODAY = '2026-11-28';
/** Forthcoming, first print run of 10. */
const FORTHCOMING = 5;
/** Out since November 1, pre-orders switched off; its pre-orders were all served. */
const OUT = 6;
/** Forthcoming, pre-orders on, none taken yet. */
const QUIET = 7;
/** An ordinary book on the shelf: never listed. */
const SHELF = 1;

let shop: TestShop;
let agent: supertest.Agent;
const waiting: number[] = [];
let canceled: number;
let served: number;
let ordinary: number;

beforeAll(async () => {
  shop = await buildTestShop({ today: () => TODAY });
  ({ agent } = await operatorBrowser(shop));
  // Seeded forthcoming titles aside: this file's titles alone take pre-orders.
  await shop.db('books').update({ takesPreorders: false, preordered: 0 });
  await makeForthcoming(shop, FORTHCOMING, { publishedOn: '2027-03-02', limit: 10 });
  await makeForthcoming(shop, OUT, { publishedOn: '2026-11-01', takesPreorders: false, inStock: 7 });
  await makeForthcoming(shop, QUIET, { publishedOn: '2027-05-20', limit: null });

  const ruth = await insertCustomer(shop.db, { firstName: 'Ruth', lastName: 'Mills' });
  const omar = await insertCustomer(shop.db, { firstName: 'Omar', lastName: 'Haddad' });
  // Ruth twice (one parent, two orders), Omar once at another price, beside a book from the shelf.
  waiting.push((await insertPreorder(shop.db, { userId: ruth.id, lines: [{ bookId: FORTHCOMING, quantity: 2, price: '16.99' }] })).orderId);
  waiting.push((await insertPreorder(shop.db, { userId: ruth.id, lines: [{ bookId: FORTHCOMING, quantity: 1, price: '16.99' }] })).orderId);
  waiting.push(
    (
      await insertPreorder(shop.db, {
        userId: omar.id,
        lines: [
          { bookId: FORTHCOMING, quantity: 3, price: '15.00' },
          { bookId: SHELF, quantity: 4, price: '9.99', preorder: false },
        ],
      })
    ).orderId,
  );
  // Canceled: its copies went back to the limit; it counts nowhere.
  canceled = (await insertPreorder(shop.db, { lines: [{ bookId: FORTHCOMING, quantity: 5, price: '16.99' }] })).orderId;
  await shop.db('orders').where({ id: canceled }).update({ status: 'canceled' });
  await shop.db('books').where({ id: FORTHCOMING }).decrement('preordered', 5);
  // Served on its publication day: sent to pack, no longer waiting.
  served = (await insertPreorder(shop.db, { lines: [{ bookId: OUT, quantity: 2, price: '12.00' }] })).orderId;
  await shop.db('orders').where({ id: served }).update({ status: 'succeeded' });
  await shop.db('books').where({ id: OUT }).update({ preordered: 0 });
  ordinary = await insertOrder(shop.db, { userId: omar.id, lines: [{ title: 'From the shelf', quantity: 1, bookId: SHELF }] });
});
afterAll(() => shop.close());

/** One title's row of the view, its figures by name. */
function rowOf(html: string, bookId: number): Record<string, string> | null {
  const row = new RegExp(`<tr id="book-${bookId}"[\\s\\S]*?</tr>`).exec(html)?.[0];
  if (!row) return null;
  const figures: Record<string, string> = { text: textOf(row) };
  for (const [, name, value] of row.matchAll(/data-figure="(\w+)">([^<]*)</g)) figures[name!] = value!.trim();
  return figures;
}

describe('GET /admin/preorders', () => {
  it('lists each title that takes or took pre-orders, with its waiting copies, parents and money taken', async () => {
    const page = await agent.get('/admin/preorders').expect(200);
    expect(rowOf(page.text, FORTHCOMING)).toMatchObject({
      limit: '10 (4 left)',
      copies: '6',
      parents: '2',
      // 2 × 16.99 + 1 × 16.99 + 3 × 15.00: the books' prices, the shelf line and the canceled order left out.
      money: '$95.97',
      served: '0',
    });
    expect(rowOf(page.text, FORTHCOMING)!.text).toContain('March 2, 2027');
    expect(rowOf(page.text, OUT)).toMatchObject({ copies: '0', parents: '0', money: '$0.00', served: '2' });
    expect(rowOf(page.text, OUT)!.text).toContain('Out now');
    expect(rowOf(page.text, QUIET)).toMatchObject({ limit: 'No limit', copies: '0', parents: '0', money: '$0.00' });
    expect(rowOf(page.text, SHELF)).toBeNull();
    // Forthcoming titles first, soonest first; then those already out.
    const order = [...page.text.matchAll(/<tr id="book-(\d+)"/g)].map((m) => Number(m[1]));
    expect(order).toEqual([FORTHCOMING, QUIET, OUT]);
    const text = textOf(page.text);
    expect(text).toContain('6 copies waiting, $95.97 taken');
    expect(text).toContain('before discounts, shipping and tax');
  });

  it("links each title's waiting orders: the orders list narrowed to pre-orders of that title", async () => {
    const page = await agent.get('/admin/preorders').expect(200);
    const href = /<a href="([^"]+)">3 orders<span class="visually-hidden"> waiting for/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
    expect(href).toBe(`/admin/orders?status=preorders&book=${FORTHCOMING}`);
    const list = await agent.get(href!).expect(200);
    expect(orderIds(list.text).sort((a, b) => a - b)).toEqual(waiting);
    expect(textOf(list.text)).toContain('Only orders with');
    expect(list.text).toMatch(/<option value="preorders" selected>Pre-orders<\/option>/);
  });

  it('is in the admin navigation and linked from the book’s edit page', async () => {
    const status = await agent.get('/admin').expect(200);
    expect(status.text).toContain('<a href="/admin/preorders">Pre-orders</a>');
    const edit = await agent.get(`/admin/books/${FORTHCOMING}/edit`).expect(200);
    expect(edit.text).toContain(`<a href="/admin/preorders#book-${FORTHCOMING}">Pre-orders</a>`);
  });

  it('is for operators only', async () => {
    const res = await shop.browser().get('/admin/preorders');
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/login/);
    expect(res.text).not.toContain('copies waiting');
  });
});

describe('the orders list', () => {
  it('filters to pre-orders: paid orders waiting for their books', async () => {
    const list = await agent.get('/admin/orders?status=preorders').expect(200);
    expect(orderIds(list.text).sort((a, b) => a - b)).toEqual(waiting);
    expect(textOf(list.text)).toContain('Pre-ordered');
  });

  it('narrows to one title, whatever the status, and keeps the title across pages and filters', async () => {
    const list = await agent.get(`/admin/orders?book=${OUT}`).expect(200);
    expect(orderIds(list.text)).toEqual([served]);
    expect(list.text).toContain(`<input type="hidden" name="book" value="${OUT}">`);
  });

  it('shows every title, with a notice, for a title that does not exist or is not a number', async () => {
    for (const [book, notice] of [
      ['999999', 'That book is not in the catalogue. Showing every title instead.'],
      ['abc', 'That is not a book from the list. Showing every title instead.'],
    ] as const) {
      const list = await agent.get(`/admin/orders?book=${book}`).expect(200);
      expect(textOf(list.text)).toContain(notice);
      expect(orderIds(list.text).sort((a, b) => a - b)).toEqual([...waiting, canceled, served, ordinary].sort((a, b) => a - b));
    }
  });
});

describe('the status page and the numbers', () => {
  it('counts the open pre-orders, linked to the pre-orders view', async () => {
    const page = await agent.get('/admin').expect(200);
    expect(page.text).toContain('<a href="/admin/preorders"><strong>3</strong> open pre-orders</a>');
    expect((await shop.services.systemStatus.check()).today).toMatchObject({ openPreorders: 3, toPack: 2 });
  });

  it('counts a paid pre-order as money taken, on the day it was paid', async () => {
    const summary = await shop.services.numbers.summary(30, new Date());
    const kept = await shop
      .db('orders')
      .whereIn('id', [...waiting, served, ordinary])
      .select('totalAmount');
    expect(summary.orders).toBe(5);
    expect(summary.revenue).toBe(kept.reduce((n: number, o: { totalAmount: string }) => n + toCents(o.totalAmount), 0));
    expect(summary.bestSellers.find((b) => b.copies === 6)).toBeDefined();
  });
});

function orderIds(html: string): number[] {
  return [...html.matchAll(/<a href="\/admin\/orders\/(\d+)">/g)].map((m) => Number(m[1]));
}
