// "Email me when it's back", in Chromium: a parent on a phone (390x844) leaves an address on a
// Coming Soon book, the operator sees one parent waiting and restocks it in /admin, the email
// arrives with a link to the book, and the parent follows its unsubscribe link. Every page passes axe.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
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

test.use({ shopFor: 'back-in-stock' });

const PARENT = 'waiting.parent@example.net';
const TITLE = 'A Kite Named Tuesday';

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
      await expect(page.getByText('Coming Soon', { exact: true })).toBeVisible();
      await check(page, 'back-in-stock-book-phone');
      // A mistyped address comes back with the reason beside the field, and the field filled in.
      await page.getByLabel('Your email address').fill('waiting.parent@example');
      const refused = await submitForm(page, page.getByRole('button', { name: "Email me when it's back" }));
      expect(refused.status()).toBe(400);
      await expect(page.getByLabel('Your email address')).toHaveAccessibleDescription(/Please enter a valid email address/);
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
