// The numbers on the /admin home in Chromium, at 390x844 and on a desktop: the revenue and
// orders charts and their table over 30 and 90 days, the export forms and a CSV download; axe clean, no
// sideways scrolling, a screenshot of each (admin-numbers-*.png).
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { insertCustomer, insertOrder } from '../helpers/admin-fixtures.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, submitAndFollow, withPage, type Shop } from './harness.ts';

test.use({ shopFor: 'admin-numbers' });

const DAY = 86_400_000;

let shop: Shop;
let browser: Browser;
let db: Db;
let operator: Operator;
let codeStep = 0;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  // The server's own database, written beside it: an operator and a few weeks of orders.
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  operator = await createOperator(db);
  const customer = await insertCustomer(db);
  const amounts = ['12.99', '31.97', '56.20', '16.99', '89.45', '24.50', '45.98'];
  for (let i = 0; i < 40; i += 1) {
    if (i % 3 === 1) continue;
    const total = amounts[i % amounts.length]!;
    await insertOrder(db, {
      userId: customer.id,
      createdAt: new Date(Date.now() - i * 2.1 * DAY),
      total,
      lines: [{ title: 'The Lantern in the Wood', quantity: 1 + (i % 3), price: '12.99' }],
    });
  }
});

test.afterAll(async () => {
  await db?.destroy();
});

/** Signs the operator in with the password and a fresh code (each code works once). */
async function signIn(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  codeStep += 1;
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!, Date.now() + (codeStep - 1) * 30_000));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test.describe('the numbers on the /admin home', () => {
  for (const [size, viewport] of [
    ['phone', phone],
    ['desktop', desktop],
  ] as const) {
    test(`shows the charts and their table, 30 and 90 days, at ${size} size`, async () => {
      await withPage(browser, viewport, async (page) => {
        await signIn(page);
        const chart = page.getByRole('img', { name: 'Revenue per day, last 30 days' });
        await expect(chart.isVisible()).resolves.toBe(true);
        expect(await page.locator('svg[data-measure="revenue"] rect.bar').count()).toBe(30);
        await expect(page.getByRole('img', { name: 'Orders per day, last 30 days' }).isVisible()).resolves.toBe(true);
        // Each chart is at least a phone's width and tall enough to read.
        const box = (await chart.boundingBox())!;
        expect(box.width).toBeGreaterThan(330);
        expect(box.height).toBeGreaterThan(170);
        // The same figures as a table, in the accessibility tree.
        await expect(page.getByRole('table', { name: 'Orders and revenue per day' }).isVisible()).resolves.toBe(true);
        expect(await page.getByRole('table', { name: 'Orders and revenue per day' }).locator('tbody tr').count()).toBe(30);
        await page.locator('.numbers-daily').scrollIntoViewIfNeeded();
        await screenshot(page, `admin-numbers-chart-${size}`, { fullPage: false });
        await check(page, `admin-numbers-30-${size}`);

        await page.getByRole('link', { name: 'Last 90 days' }).click();
        await page.waitForURL(/days=90/);
        expect(await page.locator('svg[data-measure="revenue"] rect.bar').count()).toBe(90);
        await page.locator('.numbers-daily').scrollIntoViewIfNeeded();
        await screenshot(page, `admin-numbers-chart-90-${size}`, { fullPage: false });
        await expect(page.getByRole('img', { name: 'Revenue per day, last 90 days' }).isVisible()).resolves.toBe(true);
        await check(page, `admin-numbers-90-${size}`);

        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Download sales tax (CSV)' }).click();
        expect((await download).suggestedFilename()).toMatch(/^sales-tax-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
      });
    });
  }
});
