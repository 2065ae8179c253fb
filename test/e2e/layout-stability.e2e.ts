// Nothing moves under a parent's thumb:
//  1. The checkout's islands (address check, card form) mount exactly where the server drew
//     their placeholders: the Pay button and the form end in the same place before the islands'
//     scripts arrive and after the islands have mounted, on a phone and on a desktop.
//  2. Loading the checkout records no layout shift at all (the browser's own layout-shift
//     entries, the ones Lighthouse adds up as CLS).
//  3. A book page loads without a layout shift (the empty toast region is out of the flow
//     before its script floats it), and a toast appearing and leaving moves no part of the page.
//  4. The checkout's islands start downloading only once the page has been painted: on a slow
//     connection their chunks (React among them) never delay the first paint.
//  5. The header holds still: its items are as tall as their links and buttons whatever the font,
//     and the cart's script, arriving on the first tap, draws its button where the link was.
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { desktop, phone, withPage, type Shop } from './harness.ts';
import { expectToast, plentifulBook, type Book } from './steps.ts';

test.use({ shopFor: 'layout-stability' });

let shop: Shop;
let browser: Browser;
let book: Book;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

const ISLAND_SCRIPTS = '**/assets/*.js';

const VIEWPORTS = [
  ['phone', phone],
  ['desktop', desktop],
] as const;

/** Collects the page's layout shifts not caused by input, from its first paint. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Array<{ value: number; nodes: string[] }> = [];
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }
      >) {
        if (entry.hadRecentInput) continue;
        const nodes = (entry.sources ?? []).map((source) =>
          source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : (source.node?.nodeName ?? 'gone'),
        );
        shifts.push({ value: entry.value, nodes });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * Holds each of the page's scripts back a moment, as a slow phone does: whatever the islands
 * draw then comes after the first paint, where a change of size would move the page.
 */
async function scriptsAfterFirstPaint(page: Page): Promise<void> {
  await page.route(ISLAND_SCRIPTS, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
}

function layoutShifts(page: Page) {
  return page.evaluate(() => (window as unknown as { layoutShifts: Array<{ value: number; nodes: string[] }> }).layoutShifts);
}

async function addBookToCart(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/books/${book.id}`);
  await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!');
}

/** Where an element sits on the page (not in the viewport: a click may scroll). */
function placeOf(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return {
      top: Math.round(box.top + window.scrollY),
      left: Math.round(box.left),
      width: Math.round(box.width),
      height: Math.round(box.height),
    };
  });
}

/** Where the checkout's lower half sits: the islands are above the Pay button. */
async function checkoutLayout(page: Page) {
  return { form: await placeOf(page.locator('#checkout-form')), pay: await placeOf(page.locator('button.pay-button').last()) };
}

const blockedScript = (problem: string) => problem.includes('Failed to load resource') || problem.includes('/assets/');

async function checkoutWithIslands(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/simple-checkout`);
  await page.locator('.card-form-inner:not([inert])').waitFor();
  await page.getByRole('button', { name: 'Validate Address', exact: true }).waitFor();
  await page.waitForLoadState('networkidle');
}

for (const [name, viewport] of VIEWPORTS) {
  test(`the checkout's islands mount where their placeholders stood, without a layout shift (${name})`, async () => {
    await withPage(
      browser,
      viewport,
      async (page) => {
        await recordLayoutShifts(page);
        await addBookToCart(page);
        await scriptsAfterFirstPaint(page);
        await checkoutWithIslands(page);
        const mounted = await checkoutLayout(page);
        const shifts = await page.evaluate(
          () => (window as unknown as { layoutShifts: Array<{ value: number; nodes: string[] }> }).layoutShifts,
        );
        expect(shifts, 'layout shifts while the checkout loaded').toEqual([]);

        // The same page as the server drew it, before any island's script has run.
        await page.unrouteAll();
        await page.route(ISLAND_SCRIPTS, (route) => route.abort());
        await page.goto(`${shop.baseUrl}/simple-checkout`);
        await expect(page.locator('.card-form-inner[inert]')).toHaveCount(1);
        expect(await checkoutLayout(page)).toEqual(mounted);
      },
      { allow: blockedScript },
    );
  });

  test(`the checkout's island chunks are requested after its first paint (${name})`, async () => {
    await withPage(browser, viewport, async (page) => {
      await addBookToCart(page);
      await checkoutWithIslands(page);
      const timing = await page.evaluate(() => ({
        firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime,
        chunks: performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/(?!main-)[^/]+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
      }));
      expect(timing.firstPaint, 'first paint').toBeGreaterThan(0);
      // The card form and the address check, and React with them.
      expect(timing.chunks.length).toBeGreaterThanOrEqual(3);
      for (const chunk of timing.chunks) expect(chunk.startTime, chunk.path).toBeGreaterThanOrEqual(timing.firstPaint!);
    });
  });

  test(`a book page loads without a layout shift, and a toast comes and goes without moving it (${name})`, async () => {
    await withPage(browser, viewport, async (page) => {
      await recordLayoutShifts(page);
      await scriptsAfterFirstPaint(page);
      await page.goto(`${shop.baseUrl}/books/${book.id}`);
      await page.waitForLoadState('networkidle');
      expect(await layoutShifts(page), 'layout shifts while the book page loaded').toEqual([]);
      const places = async () => ({
        heading: await placeOf(page.locator('main h1')),
        footer: await placeOf(page.locator('footer').last()),
      });
      const before = await places();
      await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await expectToast(page, 'Added to Cart!');
      expect(await places()).toEqual(before);
      await expect(page.locator('[data-toasts] [data-toast]')).toHaveCount(0, { timeout: 15_000 });
      expect(await places()).toEqual(before);
    });
  });

  test(`the header's links and buttons stay put when the cart's script arrives and the drawer closes (${name})`, async () => {
    await withPage(browser, viewport, async (page) => {
      await recordLayoutShifts(page);
      await page.goto(`${shop.baseUrl}/books/${book.id}`);
      await page.evaluate(() => document.fonts.ready);
      const header = page.locator('header.site-header');
      const places = async () => ({
        header: await placeOf(header),
        logo: await placeOf(header.locator('a.logo')),
        links: await placeOf(header.locator('.main-nav')),
        cart: await placeOf(header.locator('[data-cart-button]')),
        login: await placeOf(header.getByRole('button', { name: 'Parent Login' })),
      });
      const drawn = await places();
      // The first tap loads the cart's script, which replaces the link with its button and opens the drawer.
      await header.locator('a[data-cart-button]').click();
      const drawer = page.getByRole('dialog');
      await drawer.waitFor();
      await drawer.getByRole('button', { name: 'Close cart' }).click();
      await expect(drawer).toHaveCount(0);
      await expect(header.locator('button[data-cart-button]')).toHaveCount(1);
      expect(await places()).toEqual(drawn);
      expect(await layoutShifts(page), 'layout shifts on the book page').toEqual([]);
    });
  });
}
