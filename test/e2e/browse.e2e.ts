// Browsing journeys: home -> catalogue -> book and the 404 page, on a phone and a desktop, with
// axe on every page, plus the same journey without JavaScript. The shop's own pages (about,
// contact, the policies) are checked with the rest of the pages in a11y.e2e.ts.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, withPage, type Shop } from './harness.ts';
import { pathOf } from './steps.ts';

test.use({ shopFor: 'browse' });

let shop: Shop;
let browser: Browser;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
});

/** Home -> 'Explore Our Collection' -> catalogue -> first book. Returns nothing; asserts as it goes. */
async function homeToBook(page: Page, opts: { name?: string; axe: boolean }): Promise<void> {
  const shoot = async (what: string) => {
    if (opts.name) await screenshot(page, `${opts.name}-${what}`);
  };
  const axe = async () => {
    if (opts.axe) await expectNoAxeViolations(page);
  };

  const home = await page.goto(shop.baseUrl + '/');
  expect(home?.status()).toBe(200);
  await expect.poll(() => page.title()).toContain('Little Lantern Books');
  await shoot('home');
  await axe();

  const explore = page.getByRole('main').getByRole('button', { name: 'Explore Our Collection', exact: true }).first();
  await expect.poll(() => explore.getAttribute('href')).toBe('/books');
  await Promise.all([page.waitForURL((url) => url.pathname === '/books'), explore.click()]);
  expect(pathOf(page)).toBe('/books');
  const cards = page.locator('.book-card');
  await cards.first().waitFor();
  expect(await cards.count()).toBeGreaterThanOrEqual(12);
  await shoot('catalogue');
  await axe();

  const firstLink = cards.first().locator('a[href^="/books/"]').first();
  const href = await firstLink.getAttribute('href');
  expect(href).toMatch(/^\/books\/[^/]+$/);
  await Promise.all([page.waitForURL((url) => url.pathname === href), firstLink.click()]);
  expect(pathOf(page)).toBe(href);

  const h1 = page.locator('h1');
  expect(await h1.count()).toBe(1);
  expect((await h1.innerText()).trim()).not.toBe('');
  // The book's own panel (the recommended cards below have their own buttons).
  const detail = page.locator('article', { has: h1 });
  expect(await detail.getByRole('heading', { name: 'About This Book', exact: true }).count()).toBe(1);
  expect(await detail.getByRole('button', { name: 'Add to Cart', exact: true }).count()).toBe(1);
  const recommended = page.locator('section', { has: page.getByRole('heading', { name: 'Recommended Further Readings', exact: true }) });
  expect(await recommended.count()).toBe(1);
  expect(await recommended.locator('.book-card').count()).toBe(3);
  await shoot('book');
  await axe();
}

for (const [device, options] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test.describe(`on a ${device}`, () => {
    test('goes from the home page through the catalogue to a book', async () => {
      await withPage(browser, options, (page) => homeToBook(page, { name: device, axe: true }));
    });

    test('answers an unknown path with a 404 page', async () => {
      const missing = `/no-such-page-${device}`;
      await withPage(
        browser,
        options,
        async (page) => {
          const res = await page.goto(shop.baseUrl + missing);
          expect(res?.status()).toBe(404);
          expect(await page.getByText('Page Not Found').count()).toBeGreaterThan(0);
          await screenshot(page, `${device}-not-found`);
          await expectNoAxeViolations(page);
        },
        // Chromium logs the document's own 404 as a failed resource; that is the point here.
        // (Only that message: its location is the document itself, not an image or a script.)
        { allow: (p) => p.includes('status of 404') && p.endsWith(`${missing}:0)`) },
      );
    });
  });
}

test.describe('with JavaScript disabled', () => {
  test('the home -> catalogue -> book journey still reads correctly', async () => {
    await withPage(browser, { ...desktop, javaScriptEnabled: false }, (page) => homeToBook(page, { name: 'nojs', axe: false }));
  });
});
