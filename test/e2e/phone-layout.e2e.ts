// The screen goes to the books, on a 390x844 phone, a 360x740 phone, an 800x1100 tablet and a
// 1280x800 desktop:
//  1. The sticky header is at most 100 px tall on a phone (110 on a tablet): the logo, the cart
//     and Parent Login on one row, the four links and the search icon on a second, nothing
//     wrapped, overlapping or wider than the screen, every control at least 24x24 and the cart
//     44x44. On a desktop it all sits on one row. The search opens from its icon with a tap (no
//     script) or Tab.
//  2. The catalogue shows two cards side by side on a phone (three on a tablet, four on a
//     desktop), each card's price on one line with its row's, its button inside the card and at
//     least 44 px tall on a phone.
//  3. An operator's header has Admin and says who they are, and still fits; a parent's and a
//     visitor's never has Admin.
//  4. The book page's trail shows a separator between its steps, on one line even for a long title.
// Screenshots of each at each size.
import { expect, type Browser, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
import { desktop, phone, registerAccount, screenshot, smallPhone, submitAndFollow, withPage, type Shop } from './harness.ts';
import { newCustomer } from './steps.ts';

test.use({ shopFor: 'phone-layout' });

let shop: Shop;
let browser: Browser;
let db: Db;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
});
test.afterAll(async () => {
  await db?.destroy();
});

/** Each size: its browser, whether the header takes two rows, and the catalogue's columns. */
const SIZES = [
  ['390', phone, true, 2],
  ['360', smallPhone, true, 2],
  ['800', { viewport: { width: 800, height: 1100 }, hasTouch: true }, true, 3],
  ['1280', { ...desktop, viewport: { width: 1280, height: 800 } }, false, 4],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions, boolean, number]>;

const PAGES = ['/', '/books', '/books/1', '/contact'];
const LINKS = ['Home', 'Our Books', 'About Us', 'Contact'];

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

const middle = (box: Box) => box.y + box.height / 2;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The header's controls by name: the last one is the login or the greeting. */
function controls(page: Page, who: 'visitor' | 'parent' | 'operator'): Array<[string, Locator]> {
  const header = page.locator('header.site-header');
  const nav = header.getByRole('navigation', { name: 'Main' });
  return [
    ['logo', header.locator('a.logo')],
    ...LINKS.map((name): [string, Locator] => [name, nav.locator('.main-nav').getByRole('link', { name, exact: true })]),
    ['cart', header.locator('[data-cart-button]')],
    ...(who === 'operator' ? [['Admin', header.getByRole('link', { name: 'Admin', exact: true })] as [string, Locator]] : []),
    [
      who === 'visitor' ? 'Parent Login' : 'greeting',
      who === 'visitor' ? header.getByRole('button', { name: 'Parent Login' }) : header.locator('a.greeting'),
    ],
  ];
}

/** The search as a parent first meets it: the box on a desktop, its icon on a phone. */
function searchControl(page: Page, onPhone: boolean): Locator {
  return onPhone ? page.locator('header label[for="site-search"]') : page.locator('header #site-search');
}

/**
 * Everything the header must hold is visible, inside the screen, big enough to tap and clear of
 * the others; the header is short enough; its rows are as designed. Returns the header's height.
 */
async function expectHeaderFits(page: Page, onPhone: boolean, who: 'visitor' | 'parent' | 'operator'): Promise<number> {
  const width = page.viewportSize()!.width;
  const named = [...controls(page, who), ['search', searchControl(page, onPhone)] as [string, Locator]];
  const boxes: Array<[string, Box]> = [];
  for (const [name, control] of named) {
    await expect(control, name).toBeVisible();
    const box = await boxOf(control);
    expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(width);
    expect(Math.min(box.width, box.height), `${name} is at least 24x24`).toBeGreaterThanOrEqual(24);
    boxes.push([name, box]);
  }
  const cart = boxes.find(([name]) => name === 'cart')![1];
  expect(Math.min(cart.width, cart.height), 'the cart is at least 44x44').toBeGreaterThanOrEqual(44);
  for (const [i, [a, boxA]] of boxes.entries()) {
    for (const [b, boxB] of boxes.slice(i + 1)) expect(overlap(boxA, boxB), `${a} and ${b} overlap`).toBe(false);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the screen').toBe(true);

  const header = await boxOf(page.locator('header.site-header'));
  const rowOf = (name: string) => middle(boxes.find(([n]) => n === name)![1]);
  const last = who === 'visitor' ? 'Parent Login' : 'greeting';
  const topRow = ['logo', 'cart', last, ...(who === 'operator' ? ['Admin'] : [])];
  const secondRow = [...LINKS, 'search'];
  if (onPhone) {
    expect(header.height, 'the header on a phone or a tablet').toBeLessThanOrEqual(width < 768 ? 100 : 110);
    for (const name of topRow) expect(Math.abs(rowOf(name) - rowOf('cart')), `${name} on the first row`).toBeLessThan(12);
    for (const name of secondRow) expect(Math.abs(rowOf(name) - rowOf('Home')), `${name} on the second row`).toBeLessThan(12);
    expect(rowOf('Home') - rowOf('cart'), 'the links below the cart').toBeGreaterThan(24);
  } else {
    // One row: no taller than the header was before the phone layout (145 px).
    expect(header.height, 'the header on a desktop').toBeLessThanOrEqual(145);
    for (const [name] of boxes) expect(Math.abs(rowOf(name) - rowOf('cart')), `${name} on the one row`).toBeLessThan(12);
  }
  return header.height;
}

/** A new operator for each sign-in: an authenticator's code works once. */
async function signInAsOperator(page: Page): Promise<void> {
  const operator: Operator = await createOperator(db);
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

for (const [size, viewport, onPhone, columns] of SIZES) {
  test.describe(`at ${size} wide`, () => {
    test("a visitor's header fits, every control reachable, on every kind of page", async () => {
      await withPage(browser, viewport, async (page) => {
        for (const path of PAGES) {
          await page.goto(shop.baseUrl + path);
          const height = await expectHeaderFits(page, onPhone, 'visitor');
          test.info().annotations.push({ type: 'header height', description: `${path} at ${size}: ${Math.round(height)} px` });
        }
        await page.goto(`${shop.baseUrl}/books/1`);
        await screenshot(page, `phone-layout-header-book-${size}`, { fullPage: false });
        // The book page's trail: a separator between its steps, drawn by the stylesheet.
        const separator = await page.locator('nav.breadcrumb li + li').evaluate((step) => getComputedStyle(step, '::before').content);
        expect(separator).toContain('›');
        // The longest title's trail: Our Books whole, the title cut short on the same line, on screen.
        const longest = await db('books').orderByRaw('length(title) desc').first('id');
        await page.goto(`${shop.baseUrl}/books/${longest.id}`);
        const steps = await page.locator('nav.breadcrumb li').all();
        const [first, last] = [await boxOf(steps[0]!), await boxOf(steps.at(-1)!)];
        expect(Math.abs(middle(first) - middle(last)), 'the trail on one line').toBeLessThan(4);
        for (const step of steps) {
          const lines = await step.evaluate((li) => {
            // The lines its words lie on: one rectangle per line of each piece of text.
            const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
            const tops = new Set<number>();
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
              if (!text.textContent?.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(text);
              for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
            }
            return tops.size;
          });
          expect(lines, 'each step of the trail on one line').toBe(1);
        }
        expect(last.x + last.width, 'the trail ends on screen').toBeLessThanOrEqual(page.viewportSize()!.width);
      });
    });

    test('the search opens and finds a book, without JavaScript and from the keyboard', async () => {
      await withPage(browser, { ...viewport, javaScriptEnabled: false }, async (page) => {
        await page.goto(`${shop.baseUrl}/about`);
        const box = page.locator('#site-search');
        const form = page.locator('header form.header-search');
        if (onPhone) {
          // Closed, the box lies hidden over the links, which stay tappable.
          await expect(form).toHaveCSS('opacity', '0');
          await page.getByRole('link', { name: 'About Us', exact: true }).click({ trial: true });
          await page.locator('header label[for="site-search"]').click();
          await expect(box).toBeFocused();
          await expect(form).toHaveCSS('opacity', '1');
          await screenshot(page, `phone-layout-search-open-${size}`, { fullPage: false });
        } else {
          await box.click();
        }
        await box.fill('moon');
        await Promise.all([page.waitForURL((url) => url.pathname === '/books'), box.press('Enter')]);
        await expect(page.locator('main').getByRole('link', { name: /Moon/ }).first()).toBeVisible();
      });
      await withPage(browser, viewport, async (page) => {
        await page.goto(`${shop.baseUrl}/about`);
        const box = page.locator('#site-search');
        for (let tab = 0; tab < 12 && !(await box.evaluate((el) => el === document.activeElement)); tab++) await page.keyboard.press('Tab');
        await expect(box).toBeFocused();
        await expect(page.locator('header form.header-search')).toHaveCSS('opacity', '1');
        const searchBox = await boxOf(box);
        expect(searchBox.x + searchBox.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      });
    });

    test('the catalogue shows its cards side by side, prices on one line, buttons big enough', async () => {
      await withPage(browser, viewport, async (page) => {
        await page.goto(`${shop.baseUrl}/books`);
        const cards = page.locator('.book-grid > .book-card');
        const count = await cards.count();
        expect(count).toBeGreaterThan(8);
        const rows = new Map<number, Array<{ card: Box; price: Box; action: Box | null }>>();
        for (const card of await cards.all()) {
          const cardBox = await boxOf(card);
          const button = card.locator('.add-button');
          const action = (await button.count()) ? await boxOf(button) : null;
          const top = Math.round(cardBox.y);
          rows.set(top, [...(rows.get(top) ?? []), { card: cardBox, price: await boxOf(card.locator('.book-card-price')), action }]);
        }
        const fullRows = [...rows.values()].filter((row) => row.length === columns);
        expect(fullRows.length, `rows of ${columns}`).toBe(Math.floor(count / columns));
        for (const row of rows.values()) {
          expect(row.length).toBeLessThanOrEqual(columns);
          for (const { card, price, action } of row) {
            expect(Math.abs(price.y - row[0]!.price.y), 'prices of a row on one line').toBeLessThanOrEqual(1);
            if (!action) continue;
            expect(action.height).toBeGreaterThanOrEqual(columns === 2 ? 44 : 24);
            expect(action.x).toBeGreaterThanOrEqual(card.x);
            expect(action.x + action.width).toBeLessThanOrEqual(card.x + card.width);
          }
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        const scrolled = await page.evaluate(() => document.documentElement.scrollHeight);
        test.info().annotations.push({ type: 'catalogue height', description: `${count} books at ${size}: ${scrolled} px` });
        await screenshot(page, `phone-layout-catalogue-${size}`);
      });
    });

    test('an operator finds Admin in the header, labelled as the operator; a parent does not', async () => {
      await withPage(browser, viewport, async (page) => {
        await signInAsOperator(page);
        for (const path of ['/', '/books']) {
          await page.goto(shop.baseUrl + path);
          await expectHeaderFits(page, onPhone, 'operator');
          await expect(page.locator('header a.greeting')).toHaveText(/Hello, Olive!\s*Shop operator/);
        }
        await screenshot(page, `phone-layout-operator-${size}`, { fullPage: false });
        await Promise.all([
          page.waitForURL((url) => url.pathname === '/admin'),
          page.locator('header').getByRole('link', { name: 'Admin', exact: true }).click(),
        ]);
      });
      await withPage(browser, viewport, async (page, opened) => {
        // A long first name: the greeting ends in an ellipsis, the row stays one row.
        await registerAccount(opened.context, shop.baseUrl, newCustomer('Alexandrina-Josephine'));
        await page.goto(`${shop.baseUrl}/books`);
        await expectHeaderFits(page, onPhone, 'parent');
        await expect(page.locator('header a.greeting')).toHaveText('Hello, Alexandrina-Josephine!');
        await screenshot(page, `phone-layout-parent-${size}`, { fullPage: false });
        await expect(page.locator('header').getByRole('link', { name: 'Admin' })).toHaveCount(0);
      });
      await withPage(browser, viewport, async (page) => {
        await page.goto(`${shop.baseUrl}/books`);
        await expect(page.locator('header').getByRole('link', { name: 'Admin' })).toHaveCount(0);
      });
    });
  });
}
