import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { insertCustomer, insertOrder, textOf } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';

let shop: TestShop;
let agent: supertest.Agent;
/** Ruth's 27 paid orders, oldest first. */
const ruthOrders: number[] = [];
let shipped: number;
let delivered: number;
let canceled: number;

const DAY = 86_400_000;
const GIFT_NOTE = 'Happy 5th, Mia! <3 Love, "Gran" & Pops';
const start = Date.UTC(2026, 9, 1, 12);

beforeAll(async () => {
  shop = await buildTestShop();
  const ruth = await insertCustomer(shop.db, { email: 'Ruth.Mills@Example.com', firstName: 'Ruth', lastName: 'Mills' });
  const omar = await insertCustomer(shop.db, { email: 'omar_50%@example.org', firstName: 'Omar', lastName: 'Haddad' });
  for (let i = 0; i < 27; i++) {
    ruthOrders.push(
      await insertOrder(shop.db, {
        userId: ruth.id,
        createdAt: new Date(start + i * DAY),
        lines: [{ title: 'Owl Goes to Sea', quantity: 1 }],
        // A name for the gift slip is enough to make an order a gift.
        gift: i === 0 ? { recipient: 'Theo' } : undefined,
      }),
    );
  }
  shipped = await insertOrder(shop.db, {
    userId: omar.id,
    status: 'shipped',
    createdAt: new Date(start - 3 * DAY),
    total: '44.31',
    lines: [
      { title: 'A', quantity: 2 },
      { title: 'B', quantity: 3 },
    ],
  });
  delivered = await insertOrder(shop.db, {
    userId: omar.id,
    status: 'delivered',
    createdAt: new Date(start - 2 * DAY),
    gift: { note: GIFT_NOTE },
  });
  canceled = await insertOrder(shop.db, {
    userId: omar.id,
    status: 'canceled',
    createdAt: new Date(start - 1 * DAY),
    gift: { recipient: 'Sam', note: 'Enjoy!' },
  });
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

function orderIds(html: string): number[] {
  return [...html.matchAll(/<a href="\/admin\/orders\/(\d+)">/g)].map((m) => Number(m[1]));
}

function link(html: string, rel: 'prev' | 'next'): string | undefined {
  return new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(html)?.[1]?.replace(/&amp;/g, '&');
}

describe('GET /admin/orders', () => {
  it('lists every order newest first, 25 a page, with Previous and Next', async () => {
    const first = await agent.get('/admin/orders').expect(200);
    const newestFirst = [...ruthOrders].reverse();
    expect(orderIds(first.text)).toEqual(newestFirst.slice(0, 25));
    expect(textOf(first.text)).toContain('30 orders');
    expect(link(first.text, 'prev')).toBeUndefined();
    expect(link(first.text, 'next')).toBe('/admin/orders?page=2');

    const second = await agent.get('/admin/orders?page=2').expect(200);
    expect(orderIds(second.text)).toEqual([...newestFirst.slice(25), canceled, delivered, shipped]);
    expect(link(second.text, 'prev')).toBe('/admin/orders');
    expect(link(second.text, 'next')).toBeUndefined();
    expect(textOf(second.text)).toContain('Page 2 of 2');
  });

  it('shows each order with its date, customer, items count, total and status', async () => {
    const res = await agent.get('/admin/orders?status=shipped').expect(200);
    expect(orderIds(res.text)).toEqual([shipped]);
    const text = textOf(res.text);
    expect(text).toContain('#' + shipped);
    expect(text).toContain('September 28, 2026');
    expect(text).toContain('Omar Haddad');
    expect(text).toContain('omar_50%@example.org');
    expect(res.text).toMatch(/data-label="Items">5</);
    expect(text).toContain('$44.31');
    expect(res.text).toContain('<span class="status status-blue">Shipped</span>');
  });

  it('marks the orders that are gifts, the name and the note as its text, escaped, and no others', async () => {
    const res = await agent.get('/admin/orders?q=omar').expect(200);
    const rowOf = (id: number) => res.text.split('<tr>').find((row) => row.includes(`<a href="/admin/orders/${id}">`))!;
    const escaped = 'Happy 5th, Mia! &lt;3 Love, &quot;Gran&quot; &amp; Pops';
    expect(rowOf(delivered)).toContain(
      `<span class="gift-badge" title="${escaped}">Gift<span class="visually-hidden">: ${escaped}</span></span>`,
    );
    expect(rowOf(canceled)).toContain(
      '<span class="gift-badge" title="For Sam: Enjoy!">Gift<span class="visually-hidden"> for Sam: Enjoy!</span></span>',
    );
    expect(rowOf(shipped)).not.toContain('gift-badge');

    const named = await agent.get(`/admin/orders?q=${ruthOrders[0]}`).expect(200);
    expect(named.text).toContain('<span class="gift-badge" title="For Theo">Gift<span class="visually-hidden"> for Theo</span></span>');
    const notGifts = await agent.get('/admin/orders?status=paid').expect(200);
    expect(orderIds(notGifts.text)).toHaveLength(25);
    expect(notGifts.text).not.toContain('gift-badge');
  });

  it('filters by status and keeps the filter in the page links', async () => {
    const paid = await agent.get('/admin/orders?status=paid').expect(200);
    expect(orderIds(paid.text)).toHaveLength(25);
    expect(link(paid.text, 'next')).toBe('/admin/orders?status=paid&page=2');
    const paidSecond = await agent.get('/admin/orders?status=paid&page=2').expect(200);
    expect(orderIds(paidSecond.text)).toEqual(ruthOrders.slice(0, 2).reverse());
    expect(link(paidSecond.text, 'prev')).toBe('/admin/orders?status=paid');

    expect(orderIds((await agent.get('/admin/orders?status=delivered').expect(200)).text)).toEqual([delivered]);
    expect(orderIds((await agent.get('/admin/orders?status=canceled').expect(200)).text)).toEqual([canceled]);
    expect(orderIds((await agent.get('/admin/orders?status=all&page=2').expect(200)).text)).toHaveLength(5);
  });

  it('finds an order by its number, with or without #', async () => {
    const id = ruthOrders[3]!;
    expect(orderIds((await agent.get(`/admin/orders?q=${id}`).expect(200)).text)).toEqual([id]);
    expect(orderIds((await agent.get(`/admin/orders?q=${encodeURIComponent('#' + id)}`).expect(200)).text)).toEqual([id]);
    expect(
      orderIds((await agent.get(`/admin/orders?q=${encodeURIComponent(' #' + shipped + ' ')}&status=shipped`).expect(200)).text),
    ).toEqual([shipped]);
  });

  it('finds orders by part of the email, whatever its case, keeping the search in the page links', async () => {
    const res = await agent.get('/admin/orders?q=ruth.MILLS%40example').expect(200);
    expect(orderIds(res.text)).toHaveLength(25);
    expect(textOf(res.text)).toContain('27 orders');
    expect(link(res.text, 'next')).toBe('/admin/orders?q=ruth.MILLS%40example&page=2');
    expect(res.text).toContain('value="ruth.MILLS@example"');
  });

  it('takes % and _ in a search literally', async () => {
    expect(orderIds((await agent.get('/admin/orders?q=_50%25').expect(200)).text)).toEqual([canceled, delivered, shipped]);
    expect(orderIds((await agent.get('/admin/orders?q=%25').expect(200)).text)).toEqual([canceled, delivered, shipped]);
    expect(orderIds((await agent.get('/admin/orders?q=h_50').expect(200)).text)).toEqual([]);
  });

  it('says so when nothing matches', async () => {
    const res = await agent.get('/admin/orders?q=nobody%40nowhere.test').expect(200);
    expect(orderIds(res.text)).toEqual([]);
    expect(textOf(res.text)).toContain('No orders match.');
    expect(orderIds((await agent.get('/admin/orders?q=%23999999').expect(200)).text)).toEqual([]);
  });

  it('answers a page past the end with the last page', async () => {
    const res = await agent.get('/admin/orders?page=99').expect(200);
    expect(orderIds(res.text)).toHaveLength(5);
    expect(textOf(res.text)).toContain('Page 2 of 2');
    const none = await agent.get('/admin/orders?q=nobody&page=5').expect(200);
    expect(orderIds(none.text)).toEqual([]);
  });

  it.each([
    ['page=abc', 'The page must be a number. Showing the first page instead.'],
    ['page=0', 'The page must be 1 or more. Showing the first page instead.'],
    ['page=1.5', 'The page must be a whole number. Showing the first page instead.'],
    ['page=99999999999', 'That page is too far. Showing the first page instead.'],
    ['status=lost', 'Choose a status from the list. Showing all orders instead.'],
    ['q=a&q=b', 'Search for one order number or email. Showing every order instead.'],
    [`q=${'x'.repeat(300)}`, 'That search is too long. Showing every order instead.'],
  ])('answers %s with the first page of every order and a notice, not an error page', async (query, notice) => {
    const res = await agent.get(`/admin/orders?${query}`).expect(200);
    expect(res.text).toContain(`<div class="query-notice" role="status">\n  <p>${notice}</p>`);
    expect(textOf(res.text)).toContain('Page 1 of 2');
    expect(orderIds(res.text)).toHaveLength(25);
  });

  it('keeps the values it can use: a bad page with a good status filter still filters', async () => {
    const res = await agent.get('/admin/orders?status=canceled&page=abc').expect(200);
    expect(textOf(res.text)).toContain('The page must be a number. Showing the first page instead.');
    expect(res.text).toMatch(/<option value="canceled" selected>/);
    expect(orderIds(res.text)).toEqual([canceled]);
  });
});
