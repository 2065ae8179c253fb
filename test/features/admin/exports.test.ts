import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { toCents, toDecimal } from '../../../src/lib/money.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { insertCustomer, insertOrder } from '../../helpers/admin-fixtures.ts';
import { operatorBrowser, signInWithPassword } from '../../helpers/operator.ts';
import { at, day, kept, makeSales, within, type Made } from '../../helpers/sales-fixtures.ts';

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
  const rowsOf = (res: supertest.Response): Record<string, string>[] => parseCsv(res.text, { columns: true, bom: true });

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

  it('gives just the header row for a range without orders', async () => {
    const res = await agent.get(`/admin/exports/orders.csv?from=${day(300)}&to=${day(200)}`).expect(200);
    expect(res.text).toBe(
      `\ufefforder,date,status,customer_email,ship_to_state,title,quantity,unit_price,line_total,order_subtotal,order_shipping,order_handling,order_tax,order_total,order_refunded,order_discount_code,order_discount,gift_note\n`,
    );
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
    expect(res.text.split('\n')[0]!.split(',').slice(-2)).toEqual(['order_discount', 'gift_note']);
    expect(res.text).toContain(`,"Happy birthday, Mia!\nLove, ""Gran"" & Grandpa"\n`);
    const rows = rowsOf(res);
    const notesOf = (id: number) => rows.filter((r) => Number(r.order) === id).map((r) => r.gift_note);
    expect(notesOf(written)).toEqual([note, note]);
    expect(formulaOrders.map((id) => notesOf(id))).toEqual(formulas.map((formula) => [`'${formula}`]));
    expect(notesOf(nameOnly)).toEqual(['']);
    expect(notesOf(none)).toEqual(['']);
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
