// Cart journeys: add from a book page and a catalogue card, change quantities, remove, total,
// clear and checkout in the drawer (phone and desktop, with axe), the cart across a reload,
// the plain-HTML cart without JavaScript, and the rule that React loads only when the drawer is wanted.
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  builtAssets,
  desktop,
  expectNoAxeViolations,
  phone,
  registerAccount,
  screenshot,
  submitAndFollow,
  withPage,
  type Shop,
} from './harness.ts';
import { eventually, expectToast, pathOf, type Book } from './steps.ts';

test.use({ shopFor: 'cart' });

let shop: Shop;
let browser: Browser;

/** Two different books with more than 5 copies in stock, so quantities up to 5 (and one more) are allowed. */
let bookA: Book;
let bookB: Book;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  const res = await fetch(`${shop.baseUrl}/api/books`);
  expect(res.status).toBe(200);
  const plenty = ((await res.json()) as Book[]).filter((book) => book.inStock > 5);
  expect(plenty.length).toBeGreaterThanOrEqual(2);
  [bookA, bookB] = plenty as [Book, Book];
});

// ---------------------------------------------------------------------------------------------
// Helpers

const pathOfUrl = (url: string) => new URL(url).pathname;

const badge = (page: Page) => page.locator('[data-cart-badge]');
const cartButton = (page: Page) => page.locator('[data-cart-button]');
const drawer = (page: Page) => page.getByRole('dialog', { name: 'Shopping Cart' });
const cartLine = (scope: Locator, book: Book) =>
  scope.locator('li.cart-line', { has: scope.page().locator(`a[href="/books/${book.id}"]`) });
const lineQuantity = (scope: Locator, book: Book) =>
  scope.getByRole('group', { name: `Quantity of ${book.title}`, exact: true }).locator('output');

async function expectBadge(page: Page, count: number): Promise<void> {
  await eventually(() => badge(page).innerText()).toBe(String(count));
  expect(await badge(page).isVisible()).toBe(true);
  expect(await cartButton(page).getAttribute('aria-label')).toBe(`Shopping cart, ${count} item${count === 1 ? '' : 's'}`);
}

async function expectNoBadge(page: Page): Promise<void> {
  await eventually(() => badge(page).isHidden()).toBe(true);
  expect(await cartButton(page).getAttribute('aria-label')).toBe('Shopping cart, 0 items');
}

async function openBook(page: Page, book: Book): Promise<void> {
  const res = await page.goto(`${shop.baseUrl}/books/${book.id}`);
  expect(res?.status()).toBe(200);
  expect(await page.locator('h1').innerText()).toBe(book.title);
}

/** On a book page: choose the quantity and press Add to Cart (the form is sent with fetch). */
async function addFromBookPage(page: Page, book: Book, quantity: number): Promise<void> {
  const form = page.locator('form[data-add-to-cart]');
  await form.getByLabel('Quantity').selectOption(String(quantity));
  await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!', `${book.title} has been added to your cart.`);
}

/** On the catalogue: the card's own Add to Cart button adds one copy. */
async function addFromCatalogue(page: Page, book: Book): Promise<void> {
  const card = page.locator('.book-card', { has: page.locator(`a[href="/books/${book.id}"]`) });
  const button = card.getByRole('button', { name: /^Add to Cart/ });
  // Its accessible name also carries the title, so a list of these buttons stays distinguishable.
  expect(await button.getAttribute('aria-label')).toBe(`Add to Cart: ${book.title}`);
  await button.click();
  await expectToast(page, 'Added to cart', 'Book has been added to your cart');
}

/** Clicks the header's cart button (the link before the island loads) and waits for the dialog. */
async function openDrawer(page: Page): Promise<Locator> {
  await cartButton(page).click();
  const dialog = drawer(page);
  await dialog.waitFor();
  await eventually(() => dialog.locator('.drawer-message').count()).toBe(0); // 'Loading your cart...' is gone
  expect(await cartButton(page).getAttribute('aria-expanded')).toBe('true');
  return dialog;
}

async function expectDrawerCount(dialog: Locator, count: number): Promise<void> {
  await eventually(() => dialog.locator('.count-badge').innerText()).toBe(`${count} item(s)`);
}

async function expectEmptyDrawer(dialog: Locator): Promise<void> {
  await eventually(() => dialog.getByText('Your cart is empty. Add some books to get started!', { exact: true }).count()).toBe(1);
  expect(await dialog.getByRole('button', { name: 'Continue Shopping', exact: true }).getAttribute('href')).toBe('/books');
  expect(await dialog.locator('li.cart-line').count()).toBe(0);
  await expectDrawerCount(dialog, 0);
}

/** Presses a line's minus or plus button and waits for the line (and the badge) to show `expected`. */
async function stepQuantity(page: Page, dialog: Locator, book: Book, button: string, expected: number): Promise<void> {
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await eventually(() => lineQuantity(dialog, book).innerText()).toBe(String(expected));
  await expectBadge(page, expected);
}

/** Reads "$12.34" as cents, insisting on exactly two decimals. */
function centsOf(text: string): number {
  const match = /^\$(\d+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`not a dollar amount with two decimals: ${JSON.stringify(text)}`);
  return Number(match[1]) * 100 + Number(match[2]);
}

/** The drawer's total equals the sum of each line's shown price times its quantity, and the books' own prices. */
async function expectDrawerTotal(dialog: Locator, expected: Array<[Book, number]>): Promise<void> {
  const lines = dialog.locator('li.cart-line');
  await eventually(() => lines.count()).toBe(expected.length);
  let shownSum = 0;
  for (const [book, quantity] of expected) {
    const line = cartLine(dialog, book);
    expect(await line.locator('.cart-line-price').innerText()).toBe(`$${book.price}`);
    expect(await lineQuantity(dialog, book).innerText()).toBe(String(quantity));
    shownSum += centsOf(await line.locator('.cart-line-price').innerText()) * quantity;
  }
  const totalText = await dialog.locator('.cart-total strong').innerText();
  expect(totalText).toMatch(/^\$\d+\.\d{2}$/);
  expect(centsOf(totalText)).toBe(shownSum);
  expect(centsOf(totalText)).toBe(expected.reduce((sum, [book, quantity]) => sum + book.priceCents * quantity, 0));
}

async function expectFocusOnCartButton(page: Page): Promise<void> {
  await eventually(() => page.evaluate(() => document.activeElement?.hasAttribute('data-cart-button') ?? false)).toBe(true);
}

/**
 * 'Proceed to Checkout' links to `target` and the browser goes there. Only the target is checked:
 * the checkout pages have journeys of their own (checkout.e2e.ts).
 */
async function proceedToCheckout(page: Page, dialog: Locator, target: string): Promise<void> {
  const checkout = dialog.getByRole('button', { name: 'Proceed to Checkout', exact: true });
  expect(await checkout.getAttribute('href')).toBe(target);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.isNavigationRequest() && pathOfUrl(r.url()) === target),
    checkout.click(),
  ]);
  expect(request.method()).toBe('GET');
  await page.waitForURL((url) => url.pathname === target);
  expect(pathOf(page)).toBe(target);
}

/** URL paths of every script requested under /assets/ while `run` goes on. */
async function scriptsRequestedDuring(page: Page, run: () => Promise<void>): Promise<string[]> {
  const scripts: string[] = [];
  const onRequest = (request: { url(): string }) => {
    const p = pathOfUrl(request.url());
    if (p.startsWith('/assets/') && p.endsWith('.js')) scripts.push(p);
  };
  page.on('request', onRequest);
  try {
    await run();
  } finally {
    page.off('request', onRequest);
  }
  return scripts;
}

// ---------------------------------------------------------------------------------------------
// With JavaScript, on a phone and a desktop

for (const [device, options] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test.describe(`the cart on a ${device}`, () => {
    test('adds from a book page, changes quantities in the drawer and removes the last copy', async () => {
      await withPage(browser, options, async (page) => {
        await openBook(page, bookA);
        await expectNoBadge(page);
        await addFromBookPage(page, bookA, 2);
        await expectBadge(page, 2);

        const dialog = await openDrawer(page);
        await expectDrawerCount(dialog, 2);
        expect(await lineQuantity(dialog, bookA).innerText()).toBe('2');
        expect(await cartLine(dialog, bookA).getByRole('link').innerText()).toBe(bookA.title);

        await stepQuantity(page, dialog, bookA, `One more ${bookA.title}`, 3);
        await expectDrawerCount(dialog, 3);
        await stepQuantity(page, dialog, bookA, `One fewer ${bookA.title}`, 2);
        await stepQuantity(page, dialog, bookA, `One fewer ${bookA.title}`, 1);
        // At one copy the minus button says what it will do.
        expect(await dialog.getByRole('button', { name: `One fewer ${bookA.title}`, exact: true }).count()).toBe(0);
        await dialog.getByRole('button', { name: `Remove ${bookA.title}`, exact: true }).click();

        await expectEmptyDrawer(dialog);
        await expectNoBadge(page);
        await expectToast(page, 'Removed from cart', 'Book has been removed from your cart');
      });
    });

    test('totals two books, closes on Escape, clears the cart and goes to checkout', async () => {
      await withPage(browser, options, async (page) => {
        await openBook(page, bookA);
        await addFromBookPage(page, bookA, 2);
        await page.goto(`${shop.baseUrl}/books`);
        await addFromCatalogue(page, bookB);
        await expectBadge(page, 3);

        let dialog = await openDrawer(page);
        await expectDrawerCount(dialog, 3);
        await expectDrawerTotal(dialog, [
          [bookA, 2],
          [bookB, 1],
        ]);
        // Focus moved into the dialog when it opened.
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close cart');
        await screenshot(page, `${device}-cart-drawer`, { fullPage: false });
        await expectNoAxeViolations(page);

        await page.keyboard.press('Escape');
        await eventually(() => drawer(page).count()).toBe(0);
        await expectFocusOnCartButton(page);
        expect(await cartButton(page).getAttribute('aria-expanded')).toBe('false');

        dialog = await openDrawer(page);
        await dialog.getByRole('button', { name: 'Clear Cart', exact: true }).click();
        await expectEmptyDrawer(dialog);
        await expectNoBadge(page);
        await expectToast(page, 'Cart cleared', 'All items have been removed from your cart');
        await screenshot(page, `${device}-cart-drawer-empty`, { fullPage: false });

        await Promise.all([
          page.waitForURL((url) => url.pathname === '/books'),
          dialog.getByRole('button', { name: 'Continue Shopping', exact: true }).click(),
        ]);
        await addFromCatalogue(page, bookB);
        await expectBadge(page, 1);
        dialog = await openDrawer(page);
        await proceedToCheckout(page, dialog, '/simple-checkout');
      });
    });

    test('keeps the cart across a reload', async () => {
      await withPage(browser, options, async (page) => {
        await openBook(page, bookB);
        await addFromBookPage(page, bookB, 3);
        await expectBadge(page, 3);
        await page.reload();
        await expectBadge(page, 3);
        const dialog = await openDrawer(page);
        await expectDrawerCount(dialog, 3);
        expect(await lineQuantity(dialog, bookB).innerText()).toBe('3');
      });
    });

    test('loads no React chunk before the cart button is used, and the drawer chunk after', async () => {
      const { entryScript, chunk } = builtAssets();
      const drawerChunk = chunk('islands/cart-drawer/mount.tsx');
      const emailCheckChunk = chunk('islands/email-check/mount.tsx');
      for (const pagePath of ['/', '/books', `/books/${bookA.id}`, '/about']) {
        // A fresh context per page: an empty cache, so every script the page wants is requested.
        await withPage(browser, options, async (page) => {
          const beforeInteraction = await scriptsRequestedDuring(page, async () => {
            const res = await page.goto(shop.baseUrl + pagePath);
            expect(res?.status()).toBe(200);
            await page.waitForLoadState('networkidle');
          });
          expect(beforeInteraction, `scripts loaded by ${pagePath} before any interaction`).toEqual([entryScript]);

          if (pagePath !== '/about') return;
          const afterClick = await scriptsRequestedDuring(page, async () => {
            await openDrawer(page);
            await page.waitForLoadState('networkidle');
          });
          expect(afterClick).toContain(drawerChunk);
          expect(afterClick).not.toContain(emailCheckChunk);
        });
      }
    });
  });
}

test.describe('the cart when signed in', () => {
  test('sends a customer to /authcheckout', async () => {
    await withPage(browser, desktop, async (page) => {
      await registerAccount(page.context(), shop.baseUrl, {
        firstName: 'Cara',
        email: 'cara.cart@example.com',
        password: 'lantern-cart-1',
      });
      await openBook(page, bookB);
      expect(await page.locator('header.site-header').getByRole('link', { name: 'Hello, Cara!', exact: true }).count()).toBe(1);
      await addFromBookPage(page, bookB, 1);
      await expectBadge(page, 1);
      const dialog = await openDrawer(page);
      await proceedToCheckout(page, dialog, '/authcheckout');
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Without JavaScript: the book page's form posts, and /cart is a page of forms

test.describe('the cart with JavaScript disabled', () => {
  test('adds from the book page, shows the line on /cart, updates it and removes it', async () => {
    await withPage(browser, { ...desktop, javaScriptEnabled: false }, async (page) => {
      await openBook(page, bookA);
      const form = page.locator('form[data-add-to-cart]');
      await form.getByLabel('Quantity').selectOption('2');
      await submitAndFollow(page, form.getByRole('button', { name: 'Add to Cart', exact: true }), {
        post: '/cart',
        landing: `/books/${bookA.id}`,
      });
      await expectToast(page, 'Added to Cart!', `${bookA.title} has been added to your cart.`);
      await expectBadge(page, 2);

      const cartLink = page.locator('a[data-cart-button]');
      expect(await cartLink.getAttribute('href')).toBe('/cart');
      await Promise.all([page.waitForURL((url) => url.pathname === '/cart'), cartLink.click()]);
      expect(await page.locator('h1').innerText()).toContain('2 item(s)');
      const line = cartLine(page.locator('main'), bookA);
      expect(await line.getByRole('link').innerText()).toBe(bookA.title);
      const quantity = line.getByLabel(`Quantity of ${bookA.title}`, { exact: true });
      expect(await quantity.inputValue()).toBe('2');
      expect(centsOf(await page.locator('.cart-total strong').innerText())).toBe(bookA.priceCents * 2);
      expect(await page.getByRole('button', { name: 'Proceed to Checkout', exact: true }).getAttribute('href')).toBe('/simple-checkout');
      // (No axe here: axe-core runs in the page, and this page runs no JavaScript.)
      await screenshot(page, 'nojs-cart');

      await quantity.fill('3');
      await submitAndFollow(page, line.getByRole('button', { name: 'Update', exact: true }), {
        post: `/cart/items/${bookA.id}`,
        landing: '/cart',
      });
      expect(await cartLine(page.locator('main'), bookA).getByLabel(`Quantity of ${bookA.title}`, { exact: true }).inputValue()).toBe('3');
      await expectBadge(page, 3);
      expect(centsOf(await page.locator('.cart-total strong').innerText())).toBe(bookA.priceCents * 3);

      await submitAndFollow(page, page.getByRole('button', { name: `Remove ${bookA.title}`, exact: true }), {
        post: `/cart/items/${bookA.id}/remove`,
        landing: '/cart',
      });
      await expectToast(page, 'Removed from cart', 'Book has been removed from your cart');
      expect(await page.getByText('Your cart is empty. Add some books to get started!', { exact: true }).count()).toBe(1);
      expect(await page.locator('li.cart-line').count()).toBe(0);
      await expectNoBadge(page);
    });
  });
});
