// A parent on a phone (390x844): messages never cover the header's controls, with or without
// JavaScript, and every control is big enough to tap.
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { phone, screenshot, withPage, type Shop } from './harness.ts';
import { eventually, expectToast } from './steps.ts';

test.use({ shopFor: 'phone' });

let shop: Shop;
let browser: Browser;
const BOOK = 1;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
});

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

/** The header's controls a parent taps: the logo, the cart and Parent Login. */
function headerControls(page: Page): Locator[] {
  const header = page.locator('header.site-header');
  return [
    header.locator('a.logo'),
    header.locator('a[data-cart-button], button[data-cart-button]').first(),
    header.getByRole('button', { name: 'Parent Login' }),
  ];
}

async function expectClearOfHeader(page: Page, toast: Locator): Promise<void> {
  const message = await boxOf(toast);
  for (const control of headerControls(page)) expect(overlaps(message, await boxOf(control))).toBe(false);
}

async function addFromBookPage(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/books/${BOOK}`);
  await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
}

test.describe('messages on a phone', () => {
  test("with JavaScript, 'Added to Cart!' leaves the logo, the cart and Parent Login free, and the open cart's buttons", async () => {
    await withPage(browser, phone, async (page) => {
      await addFromBookPage(page);
      await expectToast(page, 'Added to Cart!');
      await expectClearOfHeader(page, page.locator('[data-toasts] [data-toast]'));
      // The cart opens while the message is still up, and the message moves off its buttons.
      await page.locator('header [data-cart-button]').first().click({ timeout: 2000 });
      const drawer = page.getByRole('dialog');
      await drawer.getByRole('button', { name: 'Proceed to Checkout' }).waitFor();
      const message = await boxOf(page.locator('[data-toasts] [data-toast]'));
      for (const control of [
        drawer.getByRole('button', { name: 'Close cart' }),
        drawer.getByRole('button', { name: 'Proceed to Checkout' }),
      ]) {
        expect(overlaps(message, await boxOf(control))).toBe(false);
      }
      await screenshot(page, 'phone-message-over-open-cart', { fullPage: false });
    });
  });

  test('without JavaScript, the flash sits in the page, not over the header, and closes without script', async () => {
    await withPage(browser, { ...phone, javaScriptEnabled: false }, async (page) => {
      await Promise.all([page.waitForURL((url) => url.pathname === `/books/${BOOK}`), addFromBookPage(page)]);
      await expectToast(page, 'Added to Cart!');
      const toast = page.locator('[data-toasts] [data-toast]');
      const position = await toast.evaluate((el) => {
        const fixed = (e: Element | null): boolean =>
          !!e && (['fixed', 'sticky'].includes(getComputedStyle(e).position) || fixed(e.parentElement));
        return fixed(el);
      });
      expect(position).toBe(false);
      await expectClearOfHeader(page, toast);
      // Nothing lies over the cart link: a trial click checks what would receive the tap.
      await page.locator('header a[data-cart-button]').click({ trial: true, timeout: 2000 });
      await toast.getByRole('link', { name: 'Dismiss notification' }).click();
      await eventually(() => toast.isVisible()).toBe(false);
    });
  });
});

const CONTROLS = 'button, input:not([type="hidden"]), select, textarea, summary, [role="button"], a[href]';

/**
 * Every visible control smaller than 24x24 CSS px, except links inside a sentence (WCAG 2.2
 * 2.5.8's inline exception), as 'tag "name" WxH'.
 */
async function smallControls(scope: Locator): Promise<string[]> {
  const small: string[] = [];
  for (const control of await scope.locator(CONTROLS).all()) {
    if (!(await control.isVisible())) continue;
    const inline = await control.evaluate((el) => {
      if (el.tagName !== 'A') return false;
      const parent = el.parentElement;
      return !!parent && (parent.textContent ?? '').trim().length > (el.textContent ?? '').trim().length;
    });
    if (inline) continue;
    const box = await boxOf(control);
    if (box.width < 24 || box.height < 24) {
      const name = await control.evaluate((el) => el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30));
      small.push(
        `${await control.evaluate((el) => el.tagName.toLowerCase())} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`,
      );
    }
  }
  return small;
}

test.describe('touch targets at 390x844', () => {
  for (const path of ['/', '/books', `/books/${BOOK}`, '/contact', '/login', '/about']) {
    test(`every control on ${path} is at least 24x24`, async () => {
      await withPage(browser, phone, async (page) => {
        await page.goto(shop.baseUrl + path);
        expect(await smallControls(page.locator('body'))).toEqual([]);
      });
    });
  }

  test("the drawer's controls are at least 24x24, its minus and plus at least 44x44", async () => {
    await withPage(browser, phone, async (page) => {
      await addFromBookPage(page);
      await expectToast(page, 'Added to Cart!');
      await page.locator('header [data-cart-button]').first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: /^One more / }).waitFor();
      // Measured mid-slide, a box's edges sit at fractions of a pixel and its width rounds below 44.
      await dialog.evaluate((drawer) => Promise.all(drawer.getAnimations().map((slide) => slide.finished)));
      expect(await smallControls(dialog)).toEqual([]);
      for (const name of [/^One more /]) {
        const box = await boxOf(dialog.getByRole('button', { name }).first());
        expect(box.width).toBeGreaterThanOrEqual(44);
        expect(box.height).toBeGreaterThanOrEqual(44);
      }
      const minus = await boxOf(dialog.getByRole('group').getByRole('button').first());
      expect(minus.width).toBeGreaterThanOrEqual(44);
      expect(minus.height).toBeGreaterThanOrEqual(44);
    });
  });

  test("the cart page's quantity controls are at least 44x44 without JavaScript", async () => {
    await withPage(browser, { ...phone, javaScriptEnabled: false }, async (page) => {
      await Promise.all([page.waitForURL((url) => url.pathname === `/books/${BOOK}`), addFromBookPage(page)]);
      await page.goto(`${shop.baseUrl}/cart`);
      const main = page.locator('main');
      expect(await smallControls(main)).toEqual([]);
      for (const control of await main.locator('.cart-line-quantity input[type="number"], .cart-line-quantity button').all()) {
        const box = await boxOf(control);
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.width).toBeGreaterThanOrEqual(44);
      }
    });
  });
});
