// A parent buying a present, then buying the same books again, at 390x844 and on a desktop
// (sandbox payments):
//  1. Signed in, the parent checks out one book as a gift for Mia with a note (an emoji and some
//     markup, which must stay text) and pays with 4242...: the confirmation shows the note.
//  2. In the dashboard's Orders, 'Buy again' puts the book back in the cart and shows the cart
//     with a message.
//  3. The next checkout has the last order's address filled in, and the totals worked out; the
//     Profile offers the same address to edit.
// axe and a screenshot at each step.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { desktop, expectNoAxeViolations, phone, registerAccount, screenshot, withPage, type Shop } from './harness.ts';
import { enterCard, eventually, expectToast, newCustomer, pathOf, plentifulBook, PORTLAND, PORTLAND_TOTALS, type Book } from './steps.ts';

test.use({ shopFor: 'gift-and-again' });

let shop: Shop;
let browser: Browser;
let book: Book;

const NOTE = 'Happy birthday, Mia! \u{1F382} <b>Love</b> from Gran & Grandpa';

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

async function check(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  await expectNoAxeViolations(page);
}

async function addBook(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/books/${book.id}`);
  const form = page.locator('form[data-add-to-cart]');
  await form.getByLabel('Quantity').selectOption('1');
  await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!', `${book.title} has been added to your cart.`);
}

async function openCheckout(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/authcheckout`);
  await page.locator('#card-number').waitFor();
}

for (const [device, options] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test(`${device}: a gift note on the order, then 'Buy again' and a prefilled address`, async () => {
    const customer = newCustomer(device === 'phone' ? 'Greta' : 'Hugo');
    await withPage(browser, options, async (page) => {
      await registerAccount(page.context(), shop.baseUrl, customer);
      await addBook(page);
      await openCheckout(page);
      expect(await page.locator('#co-address').inputValue()).toBe('');

      await page.locator('#co-address').fill(PORTLAND.address);
      await page.locator('#co-city').fill(PORTLAND.city);
      await page.locator('#co-zip').fill(PORTLAND.zipCode);
      await page.getByLabel('Who is it for?').fill('Mia');
      await page.getByLabel('A message for the person receiving the books').fill(NOTE);
      await eventually(() => page.locator('[data-total="total"]').innerText()).toBe(PORTLAND_TOTALS.total);
      await enterCard(page, '4242 4242 4242 4242');
      await check(page, `${device}-gift-checkout`);

      await page.getByRole('button', { name: `Pay ${PORTLAND_TOTALS.total}`, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/order-confirmation');
      const orderId = Number(new URL(page.url()).searchParams.get('orderId'));
      expect(await page.locator('.gift-note .gift-note-label').innerText()).toBe('Gift note for Mia');
      expect(await page.locator('.gift-note .gift-note-text').innerText()).toBe(NOTE);
      expect(await page.locator('.gift-note b').count()).toBe(0);
      await check(page, `${device}-gift-confirmation`);

      await page.goto(`${shop.baseUrl}/dashboard?tab=orders`);
      expect(await page.locator('.order .gift-note-text').innerText()).toBe(NOTE);
      await check(page, `${device}-gift-dashboard-orders`);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/cart'),
        page.getByRole('button', { name: `Buy again: the books of order #${orderId}` }).click(),
      ]);
      expect(pathOf(page)).toBe('/cart');
      await expectToast(page, 'Added to cart', `The books from order #${orderId} are in your cart.`);
      await expect(page.locator('main')).toContainText(book.title);
      await check(page, `${device}-buy-again-cart`);

      await openCheckout(page);
      expect(await page.locator('#co-address').inputValue()).toBe(PORTLAND.address);
      expect(await page.locator('#co-city').inputValue()).toBe(PORTLAND.city);
      expect(await page.locator('#co-zip').inputValue()).toBe(PORTLAND.zipCode);
      expect(await page.locator('#co-gift-note').inputValue()).toBe('');
      expect(await page.locator('#co-gift-recipient').inputValue()).toBe('');
      await eventually(() => page.locator('[data-total="total"]').innerText()).toBe(PORTLAND_TOTALS.total);
      await check(page, `${device}-prefilled-checkout`);

      await page.goto(`${shop.baseUrl}/dashboard?tab=profile`);
      expect(await page.getByLabel('Street address').inputValue()).toBe(PORTLAND.address);
      await check(page, `${device}-profile-address`);
    });
  });
}
