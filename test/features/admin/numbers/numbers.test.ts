import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { toDecimal } from '../../../../src/lib/money.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { insertCustomer, textOf } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser, signInWithPassword } from '../../../helpers/operator.ts';
import { cents, day, kept, makeSales, within, type Made } from '../../../helpers/sales-fixtures.ts';

// The numbers on the /admin home (charts, table, summary, best sellers, refunds), checked
// against orders made at known times and amounts (test/helpers/sales-fixtures.ts).

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

/** The figures the page shows: the chart's bars, the table's rows and the summary cards. */
function figures(html: string) {
  const chart = (measure: string) => {
    const svg = new RegExp(`<svg [^>]*data-measure="${measure}"[\\s\\S]*?</svg>`).exec(html)?.[0] ?? '';
    return [...svg.matchAll(/<rect class="bar"[^>]*data-day="([\d-]+)" data-value="(\d+)"/g)].map((m) => ({
      day: m[1]!,
      value: Number(m[2]),
    }));
  };
  const revenueBars = chart('revenue');
  const orderBars = chart('orders');
  const bars = revenueBars.map((b, i) => ({ day: b.day, cents: b.value, orders: orderBars[i]?.day === b.day ? orderBars[i].value : NaN }));
  const rows = [
    ...html.matchAll(
      /<tr data-day="([\d-]+)"><th scope="row"><time datetime="[\d-]+">[^<]+<\/time><\/th><td>(\d+)<\/td><td>([^<]+)<\/td><\/tr>/g,
    ),
  ].map((m) => ({ day: m[1]!, orders: Number(m[2]), revenue: m[3]! }));
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
    const best = [...page.text.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>(\d+)<\/td><td>(\$[\d.,]+)<\/td><\/tr>/g)].map((m) => [
      m[1],
      Number(m[2]),
      m[3],
    ]);
    // Sun: 1 + 3; Moon: 2 + 1 (the canceled order's 4 do not count).
    expect(best[0]).toEqual(['Sun Book', 4, '$67.96']);
    expect(best[1]).toEqual(['Moon Book', 3, '$38.97']);
    expect(best).toContainEqual(['Star Book', 2, '$20.00']);
  });

  it('switches to the last 90 days by link, and answers any other period with the last 30 days and a notice', async () => {
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
      const res = await agent.get(`/admin?days=${bad}`).expect(200);
      expect(res.text).toContain('<p>Choose the last 30 or the last 90 days. Showing the last 30 days instead.</p>');
      expect(figures(res.text).bars).toHaveLength(30);
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

describe('who may see them', () => {
  it('is nobody but an operator past the second factor', async () => {
    const customer = await insertCustomer(shop.db);
    const browser = shop.browser();
    expect((await signInWithPassword(browser, customer)).status).toBe(303);
    for (const path of ['/admin', '/admin?days=90']) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('Moon Book');
      const visitor = await shop.browser().get(path);
      expect(visitor.status, path).toBe(303);
      expect(visitor.headers.location).toBe('/login');
    }
  });
});
