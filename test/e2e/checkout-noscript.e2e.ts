// Checkout with JavaScript off, on a phone (390x844): card payment cannot work, so the page says
// so before any field, offers the cart and the catalogue, and shows no form it cannot submit.
// With JavaScript on the page is unchanged: no notice, the form and the card entry.
import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { phone, screenshot, withPage, type Shop } from './harness.ts';
import { expectToast, pathOf } from './steps.ts';

test.use({ shopFor: 'checkout-noscript' });

let shop: Shop;
let browser: Browser;
const BOOK = 1;
const NOTICE = 'Card payment needs JavaScript';

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
});

/** Adds the book with the page's own form and opens the guest checkout. */
async function toCheckout(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/books/${BOOK}`);
  await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!');
  await page.goto(`${shop.baseUrl}/simple-checkout`);
  await page.getByRole('heading', { level: 1, name: 'Complete Your Order' }).waitFor();
}

/** True when `a` comes before `b` in the document. */
async function precedes(a: Locator, b: Locator): Promise<boolean> {
  const other = await b.elementHandle();
  return a.evaluate((el, o) => !!o && !!(el.compareDocumentPosition(o) & Node.DOCUMENT_POSITION_FOLLOWING), other);
}

test.describe('checkout without JavaScript', () => {
  test('says card payment needs JavaScript first, offers the cart and the books, and shows no form to fill', async () => {
    await withPage(browser, { ...phone, javaScriptEnabled: false }, async (page) => {
      await toCheckout(page);
      const main = page.locator('main');
      const notice = main.getByRole('region', { name: NOTICE });
      await notice.waitFor();
      // The first words in the main content are the notice's.
      expect((await main.innerText()).trim().startsWith(NOTICE)).toBe(true);
      const firstInput = main.locator('input:not([type="hidden"])').first();
      expect(await precedes(notice, firstInput)).toBe(true);
      // No field to fill in vain: the form the card entry belongs to is not shown.
      expect(await main.locator('input:not([type="hidden"])').filter({ visible: true }).count()).toBe(0);
      expect(await main.getByText('Loading secure card entry...').filter({ visible: true }).count()).toBe(0);
      await expect(notice.getByRole('button', { name: 'Browse the books' }).getAttribute('href')).resolves.toBe('/books');
      await screenshot(page, 'phone-checkout-without-javascript');

      await notice.getByRole('button', { name: 'Back to your cart' }).click();
      await page.waitForURL((url) => url.pathname === '/cart');
      expect(pathOf(page)).toBe('/cart');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('main').innerText()).toContain('Proceed to Checkout');
    });
  });

  test('with JavaScript the notice is not shown and the form and card entry are', async () => {
    await withPage(browser, phone, async (page) => {
      await toCheckout(page);
      const main = page.locator('main');
      await main.getByRole('button', { name: /^Pay/ }).waitFor();
      expect(await main.getByText(NOTICE).filter({ visible: true }).count()).toBe(0);
      await expect(main.locator('#co-first').isVisible()).resolves.toBe(true);
      await screenshot(page, 'phone-checkout-with-javascript');
    });
  });
});
