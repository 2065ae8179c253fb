// "Email me when it's back", in Chromium: a parent on a phone (390x844) leaves an address on a
// Coming Soon book, the operator sees one parent waiting and restocks it in /admin, the email
// arrives with a link to the book, and the parent follows its unsubscribe link. A refusal (a
// mistyped address, or the book back on sale while the page was open) comes back as the form with
// its summary focused, the message beside the field and the address as typed, on a phone and on a
// desktop. Every page passes axe.
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { ACCOUNT_MESSAGES } from '../../src/features/accounts/accounts.messages.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { BACK_IN_STOCK_MESSAGES } from '../../src/features/back-in-stock/back-in-stock.schemas.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
import {
  desktop,
  expectNoAxeViolations,
  isDocumentError,
  phone,
  screenshot,
  submitAndFollow,
  submitForm,
  withPage,
  type Shop,
} from './harness.ts';
import { expectSummary } from './steps.ts';

test.use({ shopFor: 'back-in-stock' });

const PARENT = 'waiting.parent@example.net';
const TITLE = 'A Kite Named Tuesday';
/** The other Coming Soon book of the sample catalogue, for the refusals (its stock is put back after). */
const OTHER_TITLE = 'The Big Book of Small Creatures';

const DEVICES: Array<[string, BrowserContextOptions]> = [
  ['phone', phone],
  ['desktop', desktop],
];

let shop: Shop;
let browser: Browser;
let db: Db;
let operator: Operator;
let bookId: number;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  operator = await createOperator(db, { email: 'stock@littlelantern.example' });
  const book = await db('books').where({ title: TITLE }).first<{ id: number; inStock: number }>('id', 'inStock');
  expect(book.inStock).toBe(0);
  bookId = book.id;
});
test.afterAll(async () => {
  await db?.destroy();
});

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/**
 * The form came back refused, as every form in the shop tells it: the summary focused, its one
 * problem a link into the field, the field marked and described by the message, and the address
 * as it was typed.
 */
async function expectRefused(page: Page, message: string, typed: string): Promise<void> {
  await expectSummary(page, 'notify-problems', BACK_IN_STOCK_MESSAGES.refused, [['notify-email', message]]);
  const summary = page.locator('#notify-problems');
  const field = page.getByLabel('Your email address');
  await expect(field).toHaveValue(typed);
  await expect(page.locator('#notify-email-error')).toHaveText(message);
  // The summary's link takes the parent into the field to put it right.
  await summary.getByRole('link', { name: message }).click();
  await expect(field).toBeFocused();
}

/** Copies arriving (or going) behind the parent's back, as an operator's edit would make them. */
async function setStock(id: number, inStock: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('books').where({ id }).update({ inStock });
    await bumpCatalogueVersion(trx);
  });
}

/** A link from a mail, opened on this shop (mail links use the configured public address). */
const onShop = (link: string) => {
  const url = new URL(link.replace(/=3D/g, '='));
  return `${shop.baseUrl}${url.pathname}${url.search}`;
};

test('a parent is emailed once when a Coming Soon book is back, and can unsubscribe', async ({ mail }) => {
  await withPage(
    browser,
    phone,
    async (page) => {
      await page.goto(`${shop.baseUrl}/books/${bookId}`);
      await expect(page.locator('.book-info').getByText('Coming Soon', { exact: true })).toBeVisible();
      await check(page, 'back-in-stock-book-phone');
      // A mistyped address comes back with the reason beside the field, and the field filled in.
      await page.getByLabel('Your email address').fill('waiting.parent@example');
      const refused = await submitForm(page, page.getByRole('button', { name: "Email me when it's back" }));
      expect(refused.status()).toBe(400);
      await expectRefused(page, ACCOUNT_MESSAGES.badEmail, 'waiting.parent@example');
      await check(page, 'back-in-stock-refused-phone');
      await page.getByLabel('Your email address').fill(PARENT);
      const answer = await submitForm(page, page.getByRole('button', { name: "Email me when it's back" }));
      expect(answer.status()).toBe(200);
      await expect(page.getByRole('heading', { name: `We'll email you when ${TITLE} is back` })).toBeVisible();
      await check(page, 'back-in-stock-requested-phone');
    },
    { allow: isDocumentError(`/books/${bookId}/notify`, 400) },
  );

  await withPage(browser, desktop, async (page) => {
    await page.goto(`${shop.baseUrl}/login`);
    await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
    await page.locator('#signin-password').fill(operator.password);
    await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), {
      post: '/login',
      landing: '/admin/two-factor',
    });
    await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!, Date.now()));
    await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
    await page.goto(`${shop.baseUrl}/admin/books`);
    await expect(page.locator(`#waiting-${bookId}`)).toHaveText('1');
    await check(page, 'back-in-stock-admin-waiting');
    await page.getByLabel(`Copies on the shelf of ${TITLE}`).fill('12');
    await submitAndFollow(page, page.getByRole('button', { name: `Save stock of ${TITLE}` }), {
      post: `/admin/books/${bookId}/stock`,
      landing: '/admin/books',
    });
    await expect(page.locator(`#waiting-${bookId}`)).toHaveText('0');
  });

  // The "back in stock" message (not the earlier confirmation) and the links it carries.
  const message = await mail.latestLink(
    PARENT,
    new RegExp(`Subject: ${TITLE} is back in stock[\\s\\S]*?/notify/unsubscribe\\?token=(3D)?[\\w.-]+`),
  );
  const bookLink = /https?:\/\/[^\s"<>]+\/books\/\d+/.exec(message)![0];
  const unsubscribe = /https?:\/\/[^\s"<>]+\/notify\/unsubscribe\?token=(3D)?[\w.-]+/.exec(message)![0];
  expect(new URL(bookLink).pathname).toBe(`/books/${bookId}`);

  await withPage(browser, phone, async (page) => {
    await page.goto(onShop(bookLink));
    await expect(page.getByRole('button', { name: 'Add to Cart', exact: true })).toBeEnabled();
    await expect(page.getByLabel('Your email address')).toHaveCount(0);

    await page.goto(onShop(unsubscribe));
    await expect(page.getByRole('heading', { name: 'Stop this email?' })).toBeVisible();
    await check(page, 'back-in-stock-unsubscribe-phone');
    const done = await submitForm(page, page.getByRole('button', { name: 'Stop this email' }));
    expect(done.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'You will not get this email' })).toBeVisible();
    await check(page, 'back-in-stock-unsubscribed-phone');
  });
});

for (const [device, options] of DEVICES) {
  test(`on a ${device}, a refused request comes back as the form, told the shop's one way, the address kept`, async () => {
    const other = await db('books').where({ title: OTHER_TITLE }).first<{ id: number; inStock: number }>('id', 'inStock');
    expect(other.inStock).toBe(0);
    const notify = `/books/${other.id}/notify`;
    try {
      await withPage(
        browser,
        options,
        async (page) => {
          await page.goto(`${shop.baseUrl}/books/${other.id}`);
          const field = page.getByLabel('Your email address');
          const ask = () => submitForm(page, page.getByRole('button', { name: "Email me when it's back" }));

          // A mistyped address: 400.
          const mistyped = `Mistyped.${device}@example`;
          await field.fill(mistyped);
          expect((await ask()).status()).toBe(400);
          await expectRefused(page, ACCOUNT_MESSAGES.badEmail, mistyped);
          await check(page, `back-in-stock-refused-email-${device}`);

          // Put right, but the book came back on sale while the page was open: 409, the address still there.
          const typed = `Second.Try.${device}@Example.net`;
          await field.fill(typed);
          await setStock(other.id, 2);
          expect((await ask()).status()).toBe(409);
          await expectRefused(page, BACK_IN_STOCK_MESSAGES.inStock, typed);
          await check(page, `back-in-stock-refused-in-stock-${device}`);
          expect(await db('backInStockRequests').where({ bookId: other.id })).toHaveLength(0);
        },
        { allow: (p) => isDocumentError(notify, 400)(p) || isDocumentError(notify, 409)(p) },
      );
    } finally {
      await setStock(other.id, 0);
    }
  });
}
