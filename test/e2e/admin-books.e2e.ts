// The back office's books, in Chromium: an operator adds a book through the form (after one
// refused attempt that shows its messages), gives it a cover, and sees both in the catalogue, on a phone (390x844)
// and a desktop; the books list, the low-stock view, the settings and the form pass axe.
import sharp from 'sharp';
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
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

test.use({ shopFor: 'admin-books' });

let shop: Shop;
let browser: Browser;
let db: Db;
let operator: Operator;
/** Each sign-in uses the authenticator's code one step later: a code works once. */
let step = 0;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  operator = await createOperator(db, { email: 'books@littlelantern.example' });
  browser = launched;
});
test.afterAll(async () => {
  await db?.destroy();
});

/** A 1200x1800 cover drawn as SVG and turned into a JPEG by sharp: no binary fixture. */
function coverJpeg(): Promise<Buffer> {
  const drawing = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1800"><rect width="1200" height="1800" fill="#2f6f8f"/><circle cx="600" cy="700" r="320" fill="#f3b73f"/></svg>`;
  return sharp(Buffer.from(drawing)).jpeg({ quality: 85 }).toBuffer();
}

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!, Date.now() + step++ * 30_000));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

async function addsABook(viewport: BrowserContextOptions, size: string, title: string, isbn: string): Promise<void> {
  await withPage(
    browser,
    viewport,
    async (page) => {
      await signIn(page);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin/books'),
        page.getByRole('navigation', { name: 'Shop admin' }).getByRole('link', { name: 'Books' }).click(),
      ]);
      await check(page, `admin-books-${size}`);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin/books/new'),
        page.getByRole('button', { name: 'Add a book' }).click(),
      ]);
      await check(page, `admin-book-new-${size}`);

      await page.getByLabel('Title', { exact: true }).fill(title);
      await page.getByLabel('Author', { exact: true }).fill('Mara Quill');
      await page.getByLabel('Description', { exact: true }).fill('A cat keeps the lamp lit through the longest night of the year.');
      await page.getByLabel('Price (USD)').fill('-14.99');
      await page.getByLabel('Copies on the shelf').fill('2');
      await page.getByLabel('ISBN-13').fill('978-0-306-40615-8');
      await page.getByLabel('Age range').fill('4-6');
      await page.getByLabel('Publication date', { exact: true }).fill('2026-09-01');
      expect((await submitForm(page, page.getByRole('button', { name: 'Add book' }))).status()).toBe(400);
      const refused = await page.locator('main').innerText();
      expect(refused).toContain('The price cannot be negative.');
      expect(refused).toContain('That is not a valid ISBN-13');
      await check(page, `admin-book-errors-${size}`);

      await page.getByLabel('Price (USD)').fill('14.99');
      await page.getByLabel('ISBN-13').fill(isbn);
      await Promise.all([
        page.waitForURL((url) => /^\/admin\/books\/\d+\/edit$/.test(url.pathname)),
        page.getByRole('button', { name: 'Add book' }).click(),
      ]);
      await check(page, `admin-book-edit-${size}`);

      // Its cover: the edit page's Cover link, a JPEG from the publisher's designer.
      const bookId = /\/admin\/books\/(\d+)\/edit$/.exec(new URL(page.url()).pathname)![1];
      await Promise.all([
        page.waitForURL((url) => url.pathname === `/admin/books/${bookId}/cover`),
        page.locator('main').getByRole('link', { name: 'Cover', exact: true }).click(),
      ]);
      await page.getByLabel('Cover image').setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: await coverJpeg() });
      await submitAndFollow(page, page.getByRole('button', { name: 'Upload cover' }), {
        post: `/admin/books/${bookId}/cover`,
        landing: `/admin/books/${bookId}/cover`,
      });

      await page.goto(`${shop.baseUrl}/admin/books?stock=low`);
      expect(await page.locator('main').innerText()).toContain(title);
      await check(page, `admin-low-stock-${size}`);
      await page.goto(`${shop.baseUrl}/admin/settings`);
      await check(page, `admin-settings-${size}`);
    },
    { allow: isDocumentError('/admin/books', 400) },
  );

  // A parent, signed out, finds it in the catalogue and on its own page.
  await withPage(browser, viewport, async (page) => {
    await page.goto(`${shop.baseUrl}/books`);
    await expect(
      page
        .getByRole('link', { name: new RegExp(title) })
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await Promise.all([
      page.waitForURL((url) => /^\/books\/\d+$/.test(url.pathname)),
      page
        .getByRole('link', { name: new RegExp(title) })
        .first()
        .click(),
    ]);
    const main = await page.locator('main').innerText();
    expect(main).toContain('Ages 4-6');
    expect(main).toContain('Only 2 left');
    const cover = page.locator('main img').first();
    await expect(cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
    expect(await cover.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/uploads\/covers\/[0-9a-f]+-\d+\.webp$/);
    await screenshot(page, `admin-added-book-in-shop-${size}`);
  });
}

test.describe('books in the back office', () => {
  test('an operator adds a book on a phone, and a parent sees it in the catalogue', async () => {
    await addsABook(phone, 'phone', 'The Lighthouse Cat', '978-0-306-40615-7');
  });

  test('an operator adds a book on a desktop, and a parent sees it in the catalogue', async () => {
    await addsABook(desktop, 'desktop', 'The Harbour Owl', '9781402894626');
  });
});
