import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { toCents, toDecimal } from '../../../../src/lib/money.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { insertCustomer, insertOrder } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser, signInWithPassword } from '../../../helpers/operator.ts';
import { at, day, kept, makeSales, within, type Made } from '../../../helpers/sales-fixtures.ts';
import { csvHeadings, csvRows } from '../../../helpers/csv-exports.ts';

// The accountant's CSV files, read back and checked to the cent against orders made at known
// times and amounts (test/helpers/sales-fixtures.ts).

let shop: TestShop;
let agent: supertest.Agent;
let made: Made[] = [];

beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
  made = await makeSales(shop);
});

afterAll(async () => {
  await shop?.close();
});

describe('the CSV exports', () => {
  const rowsOf = (res: supertest.Response): Record<string, string>[] => csvRows(res.text);

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
      {
        order: String(shipped.id),
        date: day(2),
        status: 'Shipped',
        customer_email: shipped.email,
        ship_to_state: 'WA',
        title: 'Moon Book',
        quantity: '1',
        unit_price: '12.99',
        line_total: '12.99',
        order_subtotal: '29.98',
        order_shipping: '5.99',
        order_handling: '0.00',
        order_tax: '3.07',
        order_total: '39.04',
        order_refunded: '0.00',
        order_discount_code: '',
        order_discount: '0.00',
        gift_note: '',
      },
      {
        order: String(shipped.id),
        date: day(2),
        status: 'Shipped',
        customer_email: shipped.email,
        ship_to_state: 'WA',
        title: 'Sun Book',
        quantity: '1',
        unit_price: '16.99',
        line_total: '16.99',
        order_subtotal: '29.98',
        order_shipping: '5.99',
        order_handling: '0.00',
        order_tax: '3.07',
        order_total: '39.04',
        order_refunded: '0.00',
        order_discount_code: '',
        order_discount: '0.00',
        gift_note: '',
      },
    ]);
    // Each order's lines add up to its subtotal, to the cent.
    for (const o of expected) {
      const lines = rows.filter((r) => Number(r.order) === o.id);
      expect(
        lines.reduce((n, r) => n + toCents(r.line_total!), 0),
        `order ${o.id}`,
      ).toBe(toCents(o.subtotal));
    }
    const canceled = rows.find((r) => r.status === 'Canceled' && r.ship_to_state === 'CA')!;
    expect([canceled.quantity, canceled.line_total, canceled.order_refunded]).toEqual(['4', '51.96', '60.00']);
  });

  it('gives just the header row for a range without orders, in words, saying which amounts repeat on each book row', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(300)}&to=${day(200)}`).expect(200);
    expect(res.text).toBe(
      '\ufeffOrder number,Placed on (UTC),Status,Customer email,Ships to (state),Book,Quantity,Unit price,Line total,' +
        'Order subtotal (repeats on each book row),Order shipping (repeats on each book row),Order handling (repeats on each book row),' +
        'Order tax (repeats on each book row),Order total (repeats on each book row),Order refunded (repeats on each book row),' +
        'Order discount code,Order discount (repeats on each book row),Gift note\n',
    );
    const tax = await agent.get(`/admin/exports/sales-tax.csv?from=${day(300)}&to=${day(200)}`).expect(200);
    expect(tax.text).toBe('\ufeffState,Month,Taxable sales,Tax collected,Orders\n');
  });

  it('marks every column whose value repeats on each book row of an order, and only those', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(5)}&to=${day(0)}`).expect(200);
    const headings = csvHeadings(res.text);
    const rows = rowsOf(res);
    const keys = Object.keys(rows[0]!);
    // A column repeats when it holds the same value on every row of every order with two books or more.
    const orders = [...new Set(rows.map((r) => r.order))]
      .map((id) => rows.filter((r) => r.order === id))
      .filter((lines) => lines.length > 1);
    expect(orders.length).toBeGreaterThan(0);
    for (const [i, key] of keys.entries()) {
      const money = /^\d+\.\d{2}$/.test(rows[0]![key]!);
      const repeats = orders.every((lines) => lines.every((line) => line[key] === lines[0]![key]));
      if (money) expect(headings[i]!.endsWith('(repeats on each book row)'), `${headings[i]}`).toBe(repeats);
    }
  });

  it('cannot carry a formula into a spreadsheet', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(0)}&to=${day(0)}`).expect(200);
    const row = rowsOf(res).find((r) => r.title!.includes('HYPERLINK'))!;
    expect(row.title).toBe(`'=HYPERLINK("https://example.com","Click")`);
    expect(row.customer_email).toBe(`'-2+3@example.com`);
  });

  it("gives a gift order's note, exactly as written, on each of its lines, in a last column a spreadsheet reads as text", async () => {
    // Far from the other tests' days, so their ranges do not see these orders.
    const customer = await insertCustomer(shop.db);
    const note = 'Happy birthday, Mia!\nLove, "Gran" & Grandpa';
    const orderWith = (gift?: { note?: string; recipient?: string }, lines?: { title: string; quantity: number }[]) =>
      insertOrder(shop.db, { userId: customer.id, createdAt: at(150), gift, lines });
    const written = await orderWith({ note, recipient: 'Mia' }, [
      { title: 'Moon Book', quantity: 1 },
      { title: 'Sun Book', quantity: 1 },
    ]);
    const formulas = ['=HYPERLINK("https://example.com","Open")', '+1 for the shelf', '-from Dad', '@mia'];
    const formulaOrders = [];
    for (const formula of formulas) formulaOrders.push(await orderWith({ note: formula }));
    const nameOnly = await orderWith({ recipient: 'Sam' });
    const none = await orderWith();

    const res = await agent.get(`/admin/exports/orders.csv?from=${day(150)}&to=${day(150)}`).expect(200);
    expect(csvHeadings(res.text).slice(-2)).toEqual(['Order discount (repeats on each book row)', 'Gift note']);
    expect(res.text).toContain(`,"Happy birthday, Mia!\nLove, ""Gran"" & Grandpa"\n`);
    const rows = rowsOf(res);
    const notesOf = (id: number) => rows.filter((r) => Number(r.order) === id).map((r) => r.gift_note);
    expect(notesOf(written)).toEqual([note, note]);
    expect(formulaOrders.map((id) => notesOf(id))).toEqual(formulas.map((formula) => [`'${formula}`]));
    expect(notesOf(nameOnly)).toEqual(['']);
    expect(notesOf(none)).toEqual(['']);
  });

  it('says each order’s status in the words of the admin list, money given back included', async () => {
    const customer = await insertCustomer(shop.db);
    const placed = at(170);
    const orderOf = (status: string, refunded = '0.00') =>
      insertOrder(shop.db, { userId: customer.id, status, createdAt: placed, total: '20.00', amounts: { refunded } });
    const expected = new Map([
      [await orderOf('succeeded'), 'Paid'],
      [await orderOf('succeeded', '2.50'), 'Partly refunded'],
      [await orderOf('succeeded', '20.00'), 'Refunded'],
      [await orderOf('preordered'), 'Pre-ordered'],
      [await orderOf('shipped', '2.50'), 'Shipped'],
      [await orderOf('delivered'), 'Delivered'],
      [await orderOf('canceled', '20.00'), 'Canceled'],
    ]);
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(170)}&to=${day(170)}`).expect(200);
    const statuses = new Map(rowsOf(res).map((r) => [Number(r.order), r.status]));
    expect(statuses).toEqual(expected);
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

  it('sends a bad range back to its form on /admin, never to an error page: reversed dates swapped, the rest the last 30 days, each with a notice', async () => {
    const last30 = { from: day(29), to: day(0) };
    const back = 'The dates are back to the last 30 days: check them and download again.';
    const cases: Array<[string, { from: string; to: string }, string]> = [
      [
        `from=${day(0)}&to=${day(1)}`,
        { from: day(1), to: day(0) },
        'The start date was after the end date, so the two are swapped round: check them and download again.',
      ],
      [`from=${day(400)}&to=${day(0)}`, last30, `Choose at most 366 days at a time. ${back}`],
      ['from=2026-02-30&to=2026-03-01', last30, `The start date is not a real day. ${back}`],
      [`from=yesterday&to=${day(0)}`, last30, `The start date must be a date like 2026-11-01. ${back}`],
      [`from=${day(1)}`, last30, `Choose an end date. ${back}`],
    ];
    for (const [query, range, notice] of cases) {
      for (const name of ['orders', 'sales-tax']) {
        const res = await agent.get(`/admin/exports/${name}.csv?${query}`);
        expect(res.status, `${name}.csv?${query}`).toBe(303);
        expect(res.headers.location).toMatch(new RegExp(`^/admin\\?export=${name}&[^#]*$`));
        const page = await agent.get(res.headers.location!);
        expect(page.status).toBe(200);
        const form = /<form class="export-form" id="export-([a-z-]+)"[\s\S]*?<\/form>/g;
        const forms = new Map([...page.text.matchAll(form)].map((m) => [m[1], m[0]]));
        const mine = forms.get(name)!;
        expect(mine).toContain(`role="status" tabindex="-1" autofocus>${notice.replace(/'/g, '&#39;')}</p>`);
        expect(mine).toContain(`name="from" value="${range.from}"`);
        expect(mine).toContain(`name="to" value="${range.to}"`);
        expect(mine).toContain(`aria-describedby="export-${name}-notice"`);
        // The other form is as usual.
        const other = forms.get(name === 'orders' ? 'sales-tax' : 'orders')!;
        expect(other).not.toContain('query-notice');
      }
    }
  });
});

describe('the books file', () => {
  it('has one row per book, hidden ones too, each field as the form shows it', async () => {
    await shop.db('books').where({ id: 2 }).update({ hidden: true });
    try {
      const res = await agent.get('/admin/exports/books.csv').expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=books-\d{4}-\d{2}-\d{2}\.csv$/);
      const rows = csvRows(res.text);
      const count = Number(((await shop.db('books').count({ n: '*' }).first()) as { n: number | string }).n);
      expect(rows.map((r) => Number(r['Book number']))).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(rows[0]).toMatchObject({
        Title: 'Pip and the Moon Garden',
        'Price (USD)': '16.99',
        'Age range': '3-5',
        'Publication date': '2024-02-13',
        'ISBN-13': '',
        'Takes pre-orders': 'no',
        'Pre-order limit': '',
        'Hidden from shoppers': 'no',
      });
      expect(rows[1]).toMatchObject({ Title: 'Otter Knows the Way Home', 'Hidden from shoppers': 'yes' });
      const limited = rows.find((r) => r.Title === 'The Library at the Bottom of the Sea')!;
      expect(limited).toMatchObject({ 'Takes pre-orders': 'yes', 'Pre-order limit': '4', 'Copies pre-ordered, not yet sent': '0' });
    } finally {
      await shop.db('books').where({ id: 2 }).update({ hidden: false });
    }
  });
});

describe('who may download them', () => {
  it('is nobody but an operator past the second factor', async () => {
    const customer = await insertCustomer(shop.db);
    const browser = shop.browser();
    expect((await signInWithPassword(browser, customer)).status).toBe(303);
    for (const path of [
      `/admin/exports/orders.csv?from=${day(1)}&to=${day(0)}`,
      `/admin/exports/sales-tax.csv?from=${day(1)}&to=${day(0)}`,
    ]) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('Moon Book');
      const visitor = await shop.browser().get(path);
      expect(visitor.status, path).toBe(303);
      expect(visitor.headers.location).toBe('/login');
    }
  });
});
