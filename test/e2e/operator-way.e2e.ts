// The operator's way in and out, in Chromium at 390x844, 360x740 and 1280x800: the operator signs
// in with a code, finds the shop admin from the dashboard, reads the pre-launch checklist in
// sentences (the settings' names only on the small line beneath), sees no server path, goes
// through every admin page without sideways scrolling (wide tables scroll inside their box),
// finds the header's search words whole and the best sellers' headings over their figures, and
// logs out from the admin menu. axe and a screenshot on every page (operator-way-*.png).
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { insertCustomer, insertOrder } from '../helpers/admin-fixtures.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, smallPhone, submitAndFollow, withPage, type Shop } from './harness.ts';
import { pathOf } from './steps.ts';

test.use({ shopFor: 'operator-way' });

const LONG_TITLE = 'The Very Long Journey of the Little Lantern Across the Sleepy Harbour at Night';

let shop: Shop;
let browser: Browser;
let db: Db;
let orderId: number;
let bookId: number;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  // The server's own database, written beside it: paid orders, so the lists and best sellers have rows.
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  const customer = await insertCustomer(db, { email: 'a.very.long.address.for.a.parent@littlelantern-families.example' });
  const book: { id: number } = await db('books').first('id');
  bookId = book.id;
  orderId = await insertOrder(db, {
    userId: customer.id,
    total: '64.92',
    lines: [
      { title: LONG_TITLE, quantity: 3, price: '16.99' },
      { title: 'Pip and the Moon Garden', quantity: 1, price: '13.95' },
    ],
    gift: { note: 'Happy birthday, Mia! Love from Gran', recipient: 'Mia' },
  });
});

test.afterAll(async () => {
  await db?.destroy();
});

/** Every page of the back office an operator opens from its menu and lists. */
const adminPages = () => [
  ['/admin', 'status'],
  ['/admin/orders', 'orders'],
  [`/admin/orders/${orderId}`, 'order'],
  ['/admin/to-pack', 'to-pack'],
  ['/admin/preorders', 'preorders'],
  ['/admin/inbox', 'inbox'],
  ['/admin/books', 'books'],
  ['/admin/books/new', 'book-new'],
  [`/admin/books/${bookId}/edit`, 'book-edit'],
  [`/admin/books/${bookId}/cover`, 'book-cover'],
  ['/admin/discounts', 'discounts'],
  ['/admin/discounts/new', 'discount-new'],
  ['/admin/settings', 'settings'],
];

/** A screenshot, axe, and nothing wider than the screen. */
async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, `operator-way-${name}`);
  await expectNoAxeViolations(page);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${name}: the page is ${scrollWidth} px wide on a ${innerWidth} px screen`).toBeLessThanOrEqual(innerWidth);
}

async function signIn(page: Page, operator: Operator): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

/** A setting's name as a developer writes it: capitals joined by underscores. */
const SETTING_NAME = /\b[A-Z]+(?:_[A-Z]+)+\b/;

async function readsChecklistInSentences(page: Page): Promise<void> {
  const items = page.locator('.checklist li');
  expect(await items.count()).toBe(7);
  for (const item of await items.all()) {
    // What the eye reads first: the item without the small line for the host.
    const sentence = await item.evaluate((li) => {
      const copy = li.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('small, .visually-hidden, [aria-hidden]').forEach((e) => e.remove());
      return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
    });
    expect(sentence).toMatch(/^[A-Z].{30,}\.$/);
    expect(sentence).not.toMatch(SETTING_NAME);
    const detail = item.locator('small');
    if (await detail.count()) {
      await expect(detail.innerText()).resolves.toMatch(/^For your host: [A-Z_, ]+$/);
      // Smaller than the sentence: a detail, not the message.
      const [small, body] = await Promise.all([
        detail.evaluate((e) => parseFloat(getComputedStyle(e).fontSize)),
        item.evaluate((e) => parseFloat(getComputedStyle(e).fontSize)),
      ]);
      expect(small).toBeLessThan(body);
    }
  }
  expect(await items.first().innerText()).toContain('Card payments are in test mode: real cards cannot be charged yet.');
}

/** The header's search box shows its placeholder whole (when the header shows the box at all). */
async function searchWordsFit(page: Page): Promise<void> {
  const box = page.locator('#site-search');
  if (!(await box.isVisible())) return;
  const room = await box.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return inner - context.measureText(input.placeholder).width;
  });
  expect(room, 'the search placeholder fits its box').toBeGreaterThanOrEqual(0);
}

/** Each figure's heading ends where its figures end: right-aligned together. */
async function bestSellersLineUp(page: Page): Promise<void> {
  const table = page.locator('table.best-sellers');
  await expect(table.locator('tbody tr').count()).resolves.toBeGreaterThan(0);
  for (const column of [2, 3]) {
    const heading = table.locator(`thead th:nth-child(${column})`);
    const figure = table.locator(`tbody tr:first-child > :nth-child(${column})`);
    const [headingRight, figureRight] = await Promise.all(
      [heading, figure].map((cell) =>
        cell.evaluate((e) => {
          const range = document.createRange();
          range.selectNodeContents(e);
          return range.getBoundingClientRect().right;
        }),
      ),
    );
    expect(Math.abs(headingRight! - figureRight!), `column ${column}`).toBeLessThanOrEqual(2);
  }
}

for (const [size, viewport] of [
  ['phone', phone],
  ['small-phone', smallPhone],
  ['desktop', { ...desktop, viewport: { width: 1280, height: 800 } }],
] as const) {
  test(`an operator's way in and out of the shop admin, at ${size} size`, async () => {
    const operator = await createOperator(db);
    await withPage(browser, viewport, async (page) => {
      await signIn(page, operator);

      // From the dashboard, labelled as the shop's operator, a clear way to the shop admin.
      await page.goto(`${shop.baseUrl}/dashboard`);
      await expect(page.locator('.dashboard-hero .lead').innerText()).resolves.toMatch(/^Shop operator · /);
      await check(page, `dashboard-${size}`);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin'),
        page.getByRole('button', { name: 'Go to the shop admin' }).click(),
      ]);
      expect(await page.locator('h1').innerText()).toBe('Shop status');

      await readsChecklistInSentences(page);
      const main = await page.locator('main').innerText();
      expect(main).not.toContain(shop.env.DATA_DIR!);
      expect(main).toContain('Emails are saved as files on the server, not sent.');
      await bestSellersLineUp(page);
      await searchWordsFit(page);

      for (const [path, name] of adminPages()) {
        expect((await page.goto(`${shop.baseUrl}${path}`))?.status(), path).toBe(200);
        await check(page, `${name}-${size}`);
        expect(await page.locator('main').innerText(), path).not.toContain(shop.env.DATA_DIR!);
      }

      // Log Out from the admin menu: the session ends, and /admin asks for a sign-in again.
      const logOut = page.getByRole('navigation', { name: 'Shop admin' }).getByRole('button', { name: 'Log Out' });
      expect((await logOut.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await submitAndFollow(page, logOut, { post: '/logout', landing: '/' });
      await expect(page.getByText('Logged Out').first().isVisible()).resolves.toBe(true);
      await page.goto(`${shop.baseUrl}/admin`);
      expect(pathOf(page)).toBe('/login');
    });
  });
}
