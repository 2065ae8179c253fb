// A book's new cover, in Chromium: an operator uploads a JPEG for a seeded book on the cover
// page (after a refused file), and shoppers see it in the catalogue and on the book page at
// 390x844 and on a desktop, each screen fetching the smallest stored width that fills its slot.
// axe and a screenshot on the cover page, before and after, and on the refusal.
import sharp from 'sharp';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, submitAndFollow, withPage, type Shop } from './harness.ts';
import type { Book } from './steps.ts';

test.use({ shopFor: 'admin-covers' });

let shop: Shop;
let browser: Browser;
let db: Db;
let operator: Operator;
let book: Book;
test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  // The operator goes straight into the shop's database, enrolled, as test/helpers/operator.ts does for the API tests.
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  operator = await createOperator(db);
  book = ((await (await fetch(`${shop.baseUrl}/api/books`)).json()) as Book[])[0]!;
});
test.afterAll(async () => {
  await db?.destroy();
});

/** A 1200x1800 cover drawn as SVG and turned into a JPEG by sharp: no binary fixture. */
function coverJpeg(): Promise<Buffer> {
  const drawing = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1800">
    <rect width="1200" height="1800" fill="#f3b73f"/><circle cx="600" cy="760" r="380" fill="#1f5f5b"/>
    <rect x="120" y="1300" width="960" height="220" rx="40" fill="#fff8ec"/></svg>`;
  return sharp(Buffer.from(drawing)).jpeg({ quality: 85 }).toBuffer();
}

/** A code is accepted once: a second sign-in gives the authenticator's next one (codeAt). */
async function signInAsOperator(page: Page, codeAt = Date.now()): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!, codeAt));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

/** The width of the stored copy an <img> shows (…-320.webp), once it has loaded. */
async function shownWidth(img: Locator): Promise<{ stored: number; slot: number }> {
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
  const { src, slot } = await img.evaluate((el: HTMLImageElement) => ({
    src: el.currentSrc,
    slot: el.getBoundingClientRect().width * window.devicePixelRatio,
  }));
  const match = /\/uploads\/covers\/[0-9a-f]+-(\d+)\.webp$/.exec(src);
  expect(match, `an uploaded cover, not ${src}`).not.toBeNull();
  return { stored: Number(match![1]), slot };
}

/** The stored width a browser should pick for a slot this many device pixels wide. */
async function smallestThatFits(slot: number): Promise<number> {
  const row = await db('books').where({ id: book.id }).first('coverWidths');
  const widths = String(row.coverWidths).split(',').map(Number);
  return widths.find((w) => w >= slot) ?? Math.max(...widths);
}

test.describe('a new cover', () => {
  test('is uploaded by an operator on a desktop, after a file that is not an image is refused', async () => {
    await withPage(
      browser,
      desktop,
      async (page) => {
        await signInAsOperator(page);
        expect((await page.goto(`${shop.baseUrl}/admin/books/${book.id}/cover`))?.status()).toBe(200);
        await screenshot(page, 'admin-cover-desktop');
        await expectNoAxeViolations(page);

        await page
          .getByLabel('Cover image')
          .setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('this is a note, not a picture') });
        const [refused] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST'),
          page.getByRole('button', { name: 'Upload cover' }).click(),
        ]);
        expect(refused.status()).toBe(422);
        await page.waitForLoadState('load');
        // The form's summary, focused, and the same words beside the field.
        const summary = page.getByRole('alert');
        await expect(summary.getByRole('heading').innerText()).resolves.toBe('The cover was not changed');
        await expect(summary.getByRole('link').innerText()).resolves.toBe('The cover must be a JPEG, PNG or WebP image.');
        expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
        await expect(page.locator('#cover-file-error').innerText()).resolves.toBe('The cover must be a JPEG, PNG or WebP image.');
        await screenshot(page, 'admin-cover-refused-desktop');
        await expectNoAxeViolations(page);

        await page.getByLabel('Cover image').setInputFiles({ name: 'new-cover.jpg', mimeType: 'image/jpeg', buffer: await coverJpeg() });
        await submitAndFollow(page, page.getByRole('button', { name: 'Upload cover' }), {
          post: `/admin/books/${book.id}/cover`,
          landing: `/admin/books/${book.id}/cover`,
        });
        await expect(page.locator('main').innerText()).resolves.toContain('The cover shoppers see now');
        expect(await page.locator('.admin-cover img').evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(
          /\/uploads\/covers\/[0-9a-f]+-\d+\.webp$/,
        );
        await screenshot(page, 'admin-cover-uploaded-desktop');
        await expectNoAxeViolations(page);
      },
      { allow: (problem) => problem.includes('status of 422') },
    );
  });

  test('has a cover page that fits a phone', async () => {
    await withPage(browser, phone, async (page) => {
      await signInAsOperator(page, Date.now() + 30_000);
      expect((await page.goto(`${shop.baseUrl}/admin/books/${book.id}/cover`))?.status()).toBe(200);
      await screenshot(page, 'admin-cover-phone');
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect((await page.getByLabel('Cover image').boundingBox())!.height).toBeGreaterThanOrEqual(44);
    });
  });

  for (const [name, viewport] of [
    ['phone', phone],
    ['desktop', desktop],
  ] as const) {
    test(`shows in the catalogue and on the book page, at the smallest width that fits (${name})`, async () => {
      await withPage(browser, viewport, async (page) => {
        await page.goto(`${shop.baseUrl}/books`);
        const card = page.locator(`.book-card:has(a[href="/books/${book.id}"]) img`);
        const inGrid = await shownWidth(card);
        expect(inGrid.stored).toBe(await smallestThatFits(inGrid.slot));
        await screenshot(page, `covers-catalogue-${name}`, { fullPage: false });
      });
      // A fresh browser: one that already holds a larger copy may show it instead.
      await withPage(browser, viewport, async (page) => {
        await page.goto(`${shop.baseUrl}/books/${book.id}`);
        const cover = page.locator('.book-cover img');
        expect(await cover.getAttribute('fetchpriority')).toBe('high');
        const onPage = await shownWidth(cover);
        expect(onPage.stored).toBe(await smallestThatFits(onPage.slot));
        // Not the largest copy: on a phone and a desktop alike the cover's slot is narrower than 960 device pixels.
        expect(onPage.stored).toBeLessThan(960);
        // The space was held before the image arrived: its box has the cover's proportions.
        const box = (await cover.boundingBox())!;
        expect(box.height / box.width).toBeCloseTo(1.5, 1);
        await screenshot(page, `covers-book-${name}`, { fullPage: false });
      });
    });
  }
});
