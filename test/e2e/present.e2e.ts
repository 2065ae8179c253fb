// A present for a four-year-old, bought on a phone and on a desktop: the parent searches from
// the header, narrows the results to ages 3-5, opens the book, adds it, applies the shop's
// birthday code at checkout, writes a gift note and pays with the sandbox's 4242...; the
// confirmation shows the discount and the note. axe on every page on the way.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { createDiscountAdmin } from '../../src/features/discounts/discount-admin.ts';
import { discountForm } from '../../src/features/discounts/discounts.schemas.ts';
import { createOperator } from '../helpers/operator.ts';
import { desktop, expectNoAxeViolations, phone, registerAccount, screenshot, submitAndFollow, withPage, type Shop } from './harness.ts';
import { enterCard, eventually, expectToast, newCustomer, PORTLAND } from './steps.ts';

test.use({ shopFor: 'present' });

let shop: Shop;
let browser: Browser;
let db: Db;

const CODE = 'BIRTHDAY-5';
const BOOK = 'Pip and the Moon Garden';
// $16.99 less $5.00 is $11.99: under $25, so $7.99 shipping, $2.50 handling, no tax in Oregon.
const TOTALS = { subtotal: '$16.99', discount: '-$5.00', shipping: '$7.99', handling: '$2.50', tax: '$0.00', total: '$22.48' };
const NOTE = 'Happy fourth birthday, Mia! Love, Aunt Jo';

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  const operator = await createOperator(db, { email: 'presents@littlelantern.example' });
  const input = discountForm.parse({ code: CODE, kind: 'fixed', amount: '5.00', startsOn: '', endsOn: '', active: 'on' });
  await createDiscountAdmin(db).create(input, operator.id);
});
test.afterAll(async () => {
  await db?.destroy();
});

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

const foundCount = (page: Page) => page.getByRole('status').filter({ hasText: /found$/ });

async function findTheBook(page: Page, device: string): Promise<void> {
  await page.goto(shop.baseUrl);
  const searchBox = page.getByRole('searchbox', { name: 'Search books by title, author or word' });
  await searchBox.fill('moon');
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/books' && url.searchParams.get('q') === 'moon'),
    searchBox.press('Enter'),
  ]);
  await expect(foundCount(page)).toHaveText(/^\d+ books? found$/);
  await page.getByLabel('Age', { exact: true }).selectOption('3-5');
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get('age') === '3-5'),
    page.getByRole('button', { name: 'Show books' }).click(),
  ]);
  for (const age of await page.locator('.book-card .age').allInnerTexts()) {
    const [low, high] = age.replace('Ages ', '').split('-').map(Number);
    expect(low! <= 5 && high! >= 3, `${age} is for a four-year-old`).toBe(true);
  }
  await check(page, `present-${device}-found`);
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/books/')),
    page.locator('.book-card').filter({ hasText: BOOK }).getByRole('link').first().click(),
  ]);
  await expect(page.locator('main h1')).toHaveText(BOOK);
}

async function checkOutAsAPresent(page: Page, device: string): Promise<void> {
  await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!');
  await page.goto(`${shop.baseUrl}/authcheckout`);
  await page.locator('#card-number').waitFor();

  await page.getByLabel('Discount code', { exact: true }).fill(CODE.toLowerCase());
  await submitAndFollow(page, page.getByRole('button', { name: 'Apply', exact: true }), {
    post: '/checkout/discount',
    landing: '/authcheckout',
  });
  await expectToast(page, 'Discount applied', `Code ${CODE} applied.`);

  await page.locator('#co-address').fill(PORTLAND.address);
  await page.locator('#co-city').fill(PORTLAND.city);
  await page.locator('#co-zip').fill(PORTLAND.zipCode);
  await page.getByLabel('Who is it for?').fill('Mia');
  await page.getByLabel('A message for the person receiving the books').fill(NOTE);
  await eventually(() => page.locator('[data-total="total"]').innerText()).toBe(TOTALS.total);
  for (const key of ['subtotal', 'discount', 'shipping', 'handling', 'tax'] as const) {
    expect(await page.locator(`[data-total="${key}"]`).innerText(), key).toBe(TOTALS[key]);
  }
  await enterCard(page, '4242 4242 4242 4242');
  await check(page, `present-${device}-checkout`);
  await page.getByRole('button', { name: `Pay ${TOTALS.total}`, exact: true }).click();

  await page.waitForURL((url) => url.pathname === '/order-confirmation', { timeout: 15_000 });
  const summary = page.locator('dl.summary-totals');
  expect(await summary.locator(`dt:text-is("Discount (${CODE})") + dd`).innerText()).toBe(TOTALS.discount);
  expect(await summary.locator('dt:text-is("Total") + dd').innerText()).toBe(TOTALS.total);
  expect(await page.locator('.gift-note .gift-note-label').innerText()).toBe('Gift note for Mia');
  expect(await page.locator('.gift-note .gift-note-text').innerText()).toBe(NOTE);
  await check(page, `present-${device}-confirmation`);
}

for (const [device, options] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test(`a parent on a ${device} finds a book for a four-year-old and buys it as a present with a code`, async () => {
    await withPage(browser, options, async (page) => {
      await registerAccount(page.context(), shop.baseUrl, newCustomer(device === 'phone' ? 'Jo' : 'Sam'));
      await findTheBook(page, device);
      await checkOutAsAPresent(page, device);
    });
  });
}
