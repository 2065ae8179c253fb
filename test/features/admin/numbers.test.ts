import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { toCents, toDecimal } from '../../../src/lib/money.ts';
import { toDate } from '../../../src/lib/dates.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { insertCustomer, insertOrder, textOf } from '../../helpers/admin-fixtures.ts';
import { operatorBrowser, signInWithPassword } from '../../helpers/operator.ts';
import { placePaidOrder } from '../../helpers/orders.ts';

// The numbers on the /admin home and the accountant's CSV files, checked against orders made
// here at known times and amounts. Times are relative to today (UTC), so the test runs any day.

const DAY = 86_400_000;
const today = Date.parse(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
/** `days` days before today, at hh:mm (UTC). */
const at = (days: number, time = '10:00:00.000') => new Date(Date.parse(`${new Date(today - days * DAY).toISOString().slice(0, 10)}T${time}Z`));
const day = (days: number) => new Date(today - days * DAY).toISOString().slice(0, 10);

interface Made {
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

let shop: TestShop;
let agent: supertest.Agent;
const made: Made[] = [];
let books: number[] = [];
let paidOrderId = 0;

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
  await shop.db('refunds').insert({ orderId, amount, reason: 'test', status, requestKey: `k-${orderId}-${amount}-${status}`, createdAt: settledAt, settledAt });
}

beforeAll(async () => {
  shop = await buildTestShop();
  books = ((await shop.db('books').orderBy('id').select('id')) as { id: number }[]).map((b) => b.id);
  ({ agent } = await operatorBrowser(shop));

  await order({ createdAt: at(2), status: 'succeeded', state: 'OR', subtotal: '25.98', shipping: '5.99', tax: '0.00', total: '31.97', lines: [{ title: 'Moon Book', quantity: 2, price: '12.99' }] });
  await order({ createdAt: at(2, '23:59:59.000'), status: 'shipped', state: 'WA', subtotal: '29.98', shipping: '5.99', tax: '3.07', total: '39.04', lines: [{ title: 'Moon Book', quantity: 1, price: '12.99' }, { title: 'Sun Book', quantity: 1, price: '16.99' }] });
  const c = await order({ createdAt: at(5), status: 'delivered', state: 'WA', subtotal: '50.97', tax: '5.23', total: '56.20', refunded: '5.00', lines: [{ title: 'Sun Book', quantity: 3, price: '16.99' }] });
  const d = await order({ createdAt: at(5, '08:00:00.000'), status: 'canceled', state: 'CA', subtotal: '51.96', shipping: '5.99', tax: '2.05', total: '60.00', refunded: '60.00', lines: [{ title: 'Moon Book', quantity: 4, price: '12.99' }] });
  await order({ createdAt: at(1, '00:00:00.000'), status: 'succeeded', state: 'OR', subtotal: '10.00', tax: '0.00', total: '10.00', lines: [{ title: 'Star Book', quantity: 1, price: '10.00' }] });
  await order({ createdAt: at(29, '00:00:00.000'), status: 'succeeded', state: 'OR', subtotal: '10.00', tax: '0.00', total: '10.00', lines: [{ title: 'Star Book', quantity: 1, price: '10.00' }] });
  const e = await order({ createdAt: at(30, '23:59:59.999'), status: 'succeeded', state: 'WA', subtotal: '9.99', shipping: '5.99', tax: '1.01', total: '16.99', lines: [{ title: 'Star Book', quantity: 1, price: '9.99' }] });
  await order({ createdAt: at(120), status: 'succeeded', state: 'WA', subtotal: '100.00', tax: '10.00', total: '110.00', lines: [{ title: 'Star Book', quantity: 10, price: '10.00' }] });
  // Text a spreadsheet would run as a formula, in an order that counts for nothing.
  await order({ createdAt: at(0, '00:30:00.000'), status: 'canceled', state: 'OR', subtotal: '12.99', tax: '0.00', total: '12.99', email: `-2+3@example.com`, lines: [{ title: '=HYPERLINK("https://example.com","Click")', quantity: 1, price: '12.99' }] });

  await refund(d.id, '60.00', at(4));
  await refund(c.id, '5.00', at(3));
  await refund(c.id, '1.00', at(3), 'pending');
  await refund(e.id, '2.00', at(40));

  // One order through the real checkout: its created_at is the column's default (text on SQLite).
  paidOrderId = (await placePaidOrder(shop, { bookId: books[0]!, quantity: 2 })).orderId;
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
    lines: items.map((i: { title: string; quantity: number; price: string }) => ({ title: i.title, quantity: i.quantity, price: toDecimal(toCents(i.price)) })),
  });
});

afterAll(async () => {
  await shop?.close();
});

const kept = (o: Made) => ['succeeded', 'shipped', 'delivered'].includes(o.status);
const cents = (orders: Made[]) => orders.reduce((n, o) => n + toCents(o.total), 0);
const within = (o: Made, fromDay: string, toDay: string) => {
  const d = o.createdAt.toISOString().slice(0, 10);
  return d >= fromDay && d <= toDay;
};

/** The figures the page shows: the chart's bars, the table's rows and the summary cards. */
function figures(html: string) {
  const chart = (measure: string) => {
    const svg = new RegExp(`<svg [^>]*data-measure="${measure}"[\\s\\S]*?</svg>`).exec(html)?.[0] ?? '';
    return [...svg.matchAll(/<rect class="bar"[^>]*data-day="([\d-]+)" data-value="(\d+)"/g)].map((m) => ({ day: m[1]!, value: Number(m[2]) }));
  };
  const revenueBars = chart('revenue');
  const orderBars = chart('orders');
  const bars = revenueBars.map((b, i) => ({ day: b.day, cents: b.value, orders: orderBars[i]?.day === b.day ? orderBars[i]!.value : NaN }));
  const rows = [...html.matchAll(/<tr data-day="([\d-]+)"><th scope="row"><time datetime="[\d-]+">[^<]+<\/time><\/th><td>(\d+)<\/td><td>([^<]+)<\/td><\/tr>/g)].map((m) => ({ day: m[1]!, orders: Number(m[2]), revenue: m[3]! }));
  const card = (name: string) => new RegExp(`data-figure="${name}">([^<]+)<`).exec(html)?.[1];
  return { bars, rows, revenue: card('revenue'), orders: card('orders'), average: card('average'), refunds: card('refunds') };
}

describe('the numbers on the /admin home', () => {
  it('shows revenue and orders per day for the last 30 days, in the chart and the table alike', async () => {
    const page = await agent.get('/admin').expect(200);
    const f = figures(page.text);
    const counted = made.filter((o) => kept(o) && within(o, day(29), day(0)));
    expect(counted.length).toBe(6);

    expect(f.bars).toHaveLength(30);
    expect(f.rows).toHaveLength(30);
    expect(f.bars[0]!.day).toBe(day(29));
    expect(f.bars.at(-1)!.day).toBe(day(0));
    for (const bar of f.bars) {
      const that = counted.filter((o) => within(o, bar.day, bar.day));
      expect(bar.cents, bar.day).toBe(cents(that));
      expect(bar.orders, bar.day).toBe(that.length);
      const row = f.rows.find((r) => r.day === bar.day)!;
      expect(row.orders, bar.day).toBe(that.length);
      expect(row.revenue, bar.day).toBe(`$${toDecimal(cents(that))}`);
    }
    // Two orders two days ago, the second at 23:59:59; a day with none is zero.
    expect(f.bars.find((b) => b.day === day(2))!.cents).toBe(3197 + 3904);
    expect(f.rows.find((r) => r.day === day(3))).toEqual({ day: day(3), orders: 0, revenue: '$0.00' });

    expect(f.orders).toBe('6');
    expect(f.revenue).toBe(`$${toDecimal(cents(counted))}`);
    expect(f.average).toBe(`$${toDecimal(Math.round(cents(counted) / 6))}`);
    // The canceled order's refund and a partial one; the refund still in progress is not counted.
    expect(f.refunds).toBe('2 refunds, $65.00');
  });

  it('lists the best sellers by copies of paid, kept orders', async () => {
    const page = await agent.get('/admin').expect(200);
    const best = [...page.text.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>(\d+)<\/td><td>(\$[\d.,]+)<\/td><\/tr>/g)].map((m) => [m[1], Number(m[2]), m[3]]);
    // Sun: 1 + 3; Moon: 2 + 1 (the canceled order's 4 do not count).
    expect(best[0]).toEqual(['Sun Book', 4, '$67.96']);
    expect(best[1]).toEqual(['Moon Book', 3, '$38.97']);
    expect(best).toContainEqual(['Star Book', 2, '$20.00']);
  });

  it('switches to the last 90 days by link, and refuses any other period with a message', async () => {
    const page = await agent.get('/admin?days=90').expect(200);
    const f = figures(page.text);
    const counted = made.filter((o) => kept(o) && within(o, day(89), day(0)));
    expect(counted.length).toBe(7);
    expect(f.bars).toHaveLength(90);
    expect(f.bars.find((b) => b.day === day(30))!.cents).toBe(1699);
    expect(f.revenue).toBe(`$${toDecimal(cents(counted))}`);
    expect(f.refunds).toBe('3 refunds, $67.00');
    expect(page.text).toMatch(/href="\/admin\?days=90#numbers-heading" aria-current="page"/);

    for (const bad of ['7', 'abc', '90.5']) {
      const res = await agent.get(`/admin?days=${bad}`).expect(400);
      expect(res.text).toContain('Choose the last 30 or the last 90 days.');
    }
  });

  it('draws an accessible chart: an image with a title and description, its marks hidden', async () => {
    const page = await agent.get('/admin').expect(200);
    expect(page.text).toMatch(/<svg role="img" aria-labelledby="revenue-chart-title revenue-chart-desc"/);
    expect(page.text).toContain('<title id="revenue-chart-title">Revenue per day, last 30 days</title>');
    expect(page.text).toMatch(/<svg role="img" aria-labelledby="orders-chart-title orders-chart-desc"/);
    expect(page.text).toContain('<title id="orders-chart-title">Orders per day, last 30 days</title>');
    expect(textOf(page.text)).toContain('Days are UTC days');
    expect(page.text).toMatch(/<g aria-hidden="true">\s*<line class="gridline"/);
  });
});

describe('the CSV exports', () => {
  const rowsOf = (res: supertest.Response) => parseCsv(res.text, { columns: true, bom: true }) as Record<string, string>[];

  it('gives every line of the orders placed in the range, with exact amounts', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(5)}&to=${day(0)}`).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename=orders-${day(5)}-to-${day(0)}.csv`);
    const rows = rowsOf(res);
    const expected = made.filter((o) => within(o, day(5), day(0))).sort((a, b) => a.id - b.id);
    expect(rows.length).toBe(expected.reduce((n, o) => n + o.lines.length, 0));
    expect([...new Set(rows.map((r) => Number(r.order)))]).toEqual(expected.map((o) => o.id));

    const shipped = made.find((o) => o.status === 'shipped')!;
    expect(rows.filter((r) => Number(r.order) === shipped.id)).toEqual([
      { order: String(shipped.id), date: day(2), status: 'Shipped', customer_email: shipped.email, ship_to_state: 'WA', title: 'Moon Book', quantity: '1', unit_price: '12.99', line_total: '12.99', order_subtotal: '29.98', order_shipping: '5.99', order_handling: '0.00', order_tax: '3.07', order_total: '39.04', order_refunded: '0.00' },
      { order: String(shipped.id), date: day(2), status: 'Shipped', customer_email: shipped.email, ship_to_state: 'WA', title: 'Sun Book', quantity: '1', unit_price: '16.99', line_total: '16.99', order_subtotal: '29.98', order_shipping: '5.99', order_handling: '0.00', order_tax: '3.07', order_total: '39.04', order_refunded: '0.00' },
    ]);
    // Each order's lines add up to its subtotal, to the cent.
    for (const o of expected) {
      const lines = rows.filter((r) => Number(r.order) === o.id);
      expect(lines.reduce((n, r) => n + toCents(r.line_total!), 0), `order ${o.id}`).toBe(toCents(o.subtotal));
    }
    const canceled = rows.find((r) => r.status === 'Canceled' && r.ship_to_state === 'CA')!;
    expect([canceled.quantity, canceled.line_total, canceled.order_refunded]).toEqual(['4', '51.96', '60.00']);
  });

  it('gives just the header row for a range without orders', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(300)}&to=${day(200)}`).expect(200);
    expect(res.text).toBe(`\ufefforder,date,status,customer_email,ship_to_state,title,quantity,unit_price,line_total,order_subtotal,order_shipping,order_handling,order_tax,order_total,order_refunded\n`);
  });

  it('cannot carry a formula into a spreadsheet', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(0)}&to=${day(0)}`).expect(200);
    const row = rowsOf(res).find((r) => r.title!.includes('HYPERLINK'))!;
    expect(row.title).toBe(`'=HYPERLINK("https://example.com","Click")`);
    expect(row.customer_email).toBe(`'-2+3@example.com`);
  });

  it('sums sales tax per state and month exactly, leaving canceled orders out', async () => {
    const res = await agent.get(`/admin/exports/sales-tax.csv?from=${day(100)}&to=${day(0)}`).expect(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename=sales-tax-${day(100)}-to-${day(0)}.csv`);
    const rows = rowsOf(res);
    const expected = new Map<string, { taxable: number; tax: number; orders: number }>();
    for (const o of made.filter((m) => kept(m) && within(m, day(100), day(0)))) {
      const key = `${o.state ?? ''}|${o.createdAt.toISOString().slice(0, 7)}`;
      const sum = expected.get(key) ?? { taxable: 0, tax: 0, orders: 0 };
      expected.set(key, { taxable: sum.taxable + toCents(o.subtotal), tax: sum.tax + toCents(o.tax), orders: sum.orders + 1 });
    }
    expect(rows.map((r) => `${r.state}|${r.month}`).sort()).toEqual([...expected.keys()].sort());
    for (const r of rows) {
      const want = expected.get(`${r.state}|${r.month}`)!;
      expect([r.taxable_sales, r.tax_collected, Number(r.orders)]).toEqual([toDecimal(want.taxable), toDecimal(want.tax), want.orders]);
    }
    // Washington over the range: 3.07 + 5.23 + 1.01, whatever months they fall in; California's only order was canceled.
    const wa = rows.filter((r) => r.state === 'WA').reduce((n, r) => n + toCents(r.tax_collected!), 0);
    expect(toDecimal(wa)).toBe('9.31');
    expect(rows.some((r) => r.state === 'CA')).toBe(false);
  });

  it('answers with the error page, not half a file, when the orders cannot be read', async () => {
    await shop.db.schema.renameTable('order_items', 'order_items_away');
    try {
      const res = await agent.get(`/admin/exports/orders.csv?from=${day(5)}&to=${day(0)}`);
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-disposition']).toBeUndefined();
    } finally {
      await shop.db.schema.renameTable('order_items_away', 'order_items');
    }
  });

  it('refuses a bad range with a message', async () => {
    const cases: Array<[string, string]> = [
      [`from=${day(0)}&to=${day(1)}`, 'The start date must be on or before the end date.'],
      [`from=${day(400)}&to=${day(0)}`, 'Choose at most 366 days at a time.'],
      ['from=2026-02-30&to=2026-03-01', 'The start date is not a real day.'],
      [`from=yesterday&to=${day(0)}`, 'The start date must be a date like 2026-11-01.'],
      [`from=${day(1)}`, 'Choose an end date.'],
    ];
    for (const [query, message] of cases) {
      for (const file of ['orders.csv', 'sales-tax.csv']) {
        const res = await agent.get(`/admin/exports/${file}?${query}`);
        expect(res.status, `${file}?${query}`).toBe(400);
        expect(res.text).toContain(message);
      }
    }
  });
});

describe('who may see them', () => {
  it('is nobody but an operator past the second factor', async () => {
    const customer = await insertCustomer(shop.db);
    const browser = shop.browser();
    expect((await signInWithPassword(browser, customer)).status).toBe(303);
    for (const path of ['/admin?days=90', `/admin/exports/orders.csv?from=${day(1)}&to=${day(0)}`, `/admin/exports/sales-tax.csv?from=${day(1)}&to=${day(0)}`]) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('Moon Book');
      const visitor = await shop.browser().get(path);
      expect(visitor.status, path).toBe(303);
      expect(visitor.headers.location).toBe('/login');
    }
  });
});
