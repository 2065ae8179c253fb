// A returning parent at guest checkout, at 390x844, 360x740 and 1280x800 (sandbox payments):
//
//  1. A guest's card is declined: the account was made before the payment, and no order.
//  2. Later, in a new browser (a new session and no cart), the parent puts the book in the cart
//     again, goes to the checkout and types the same email: the live check says it is registered
//     and offers to sign in right there (axe + screenshot).
//  3. A wrong password: 'Login Failed' and 'Invalid email or password' beside the password, as on
//     /login; still the guest checkout (axe + screenshot).
//  4. The right password: the signed-in checkout, with the address typed before kept and the book
//     once (not again beside the copy the declined checkout left in the account's cart); pays
//     with 4242...; 'Payment Successful!'; the confirmation of one order (screenshots).
//  5. (phone) Pay pressed before any sign-in: 'Account Creation Failed' and the offer at once;
//     signing in there pays with the card as typed, straight to the confirmation (screenshot).
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { desktop, expectNoAxeViolations, isDocumentError, phone, screenshot, smallPhone, withPage, type Shop } from './harness.ts';
import {
  enterCard,
  eventually,
  expectToast,
  fillGuestDetails,
  newCustomer,
  orderIds,
  pathOf,
  paymentProblem,
  plentifulBook,
  PORTLAND,
  PORTLAND_TOTALS,
  type Book,
} from './steps.ts';

test.use({ shopFor: 'returning-parent' });

let shop: Shop;
let browser: Browser;
let book: Book;

const CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;
const TAKEN = 'This email is already registered. Please use a different email or sign in.';
const OFFER = 'Sign in and continue';

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

/** The book page's Add to Cart, then the drawer's Proceed to Checkout, to the guest checkout with its islands mounted. */
async function toGuestCheckout(page: Page): Promise<void> {
  expect((await page.goto(`${shop.baseUrl}/books/${book.id}`))?.status()).toBe(200);
  const form = page.locator('form[data-add-to-cart]');
  await form.getByLabel('Quantity').selectOption('1');
  await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!', `${book.title} has been added to your cart.`);
  await page.locator('[data-cart-button]').click();
  const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
  await drawer.waitFor();
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/simple-checkout'),
    drawer.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click(),
  ]);
  await page.locator('#card-number').waitFor();
}

async function fillAddress(page: Page): Promise<void> {
  await page.locator('#co-address').fill(PORTLAND.address);
  await page.locator('#co-city').fill(PORTLAND.city);
  await page.locator('#co-zip').fill(PORTLAND.zipCode);
}

/** Waits for the total, types a card and presses Pay. */
async function pay(page: Page, card: string): Promise<void> {
  await eventually(() => page.locator('button.pay-button').innerText()).toMatch(/^Pay \$\d+\.\d\d$/);
  await enterCard(page, card);
  await page.locator('button.pay-button').click();
}

/** The email field and the live check under it in view, below the sticky header. */
async function showEmail(page: Page): Promise<void> {
  await page.locator('label[for="co-email"]').evaluate((label) => label.scrollIntoView({ block: 'center' }));
}

/** A guest whose card is declined: their account exists, with the book left in its cart, and no order. */
async function declined(options: BrowserContextOptions, parent: ReturnType<typeof newCustomer>): Promise<void> {
  await withPage(browser, options, async (page) => {
    await toGuestCheckout(page);
    await fillGuestDetails(page, parent);
    await fillAddress(page);
    await pay(page, CARDS.declined);
    await eventually(() => paymentProblem(page)).toBe('Payment Failed: Your card was declined.');
    expect(await orderIds(page, shop.baseUrl)).toEqual([]);
  });
}

/** 'Payment Successful!', the confirmation, and the parent's one order. */
async function expectPaid(page: Page, screenshotName: string): Promise<void> {
  await expectToast(page, 'Payment Successful!', 'Thank you! Taking you to your order confirmation...');
  await page.waitForURL((url) => url.pathname === '/order-confirmation');
  expect(await page.locator('h1').innerText()).toBe('Order Confirmed!');
  const orderId = Number(new URL(page.url()).searchParams.get('orderId'));
  expect(await orderIds(page, shop.baseUrl)).toEqual([orderId]);
  const lines = page.locator('.summary-lines li');
  expect(await lines.allInnerTexts()).toEqual([expect.stringContaining(book.title)]);
  expect(await lines.locator('small').first().innerText()).toBe('× 1');
  await screenshot(page, screenshotName);
}

const sizes: Array<[name: string, options: BrowserContextOptions]> = [
  ['phone', phone],
  ['small-phone', smallPhone],
  ['desktop', { ...desktop, viewport: { width: 1280, height: 800 } }],
];

for (const [device, options] of sizes) {
  test(`${device}: a parent whose card was declined comes back, signs in at checkout and pays`, async () => {
    const parent = newCustomer('Rosa');

    await declined(options, parent);

    // Another day, another browser: no session, no cart.
    await withPage(
      browser,
      options,
      async (page) => {
        await toGuestCheckout(page);
        await page.locator('#co-first').fill(parent.firstName);
        await page.locator('#co-last').fill(parent.lastName);
        await page.locator('#co-email').fill(parent.email);
        const status = page.locator('#co-email-status');
        await eventually(() => status.locator('.email-check').innerText()).toBe(TAKEN);
        const offer = status.getByRole('button', { name: OFFER, exact: true });
        await offer.waitFor();
        expect(await page.locator('#co-password').getAttribute('autocomplete')).toBe('current-password');
        await fillAddress(page);
        await expectNoAxeViolations(page);
        await showEmail(page);
        await screenshot(page, `returning-parent-${device}-offer`, { fullPage: false });

        // A wrong password: the sign-in form's words, beside the password; nothing else changes.
        await page.locator('#co-password').fill('not-my-password');
        await offer.click();
        const summary = page.locator('#checkout-form-problems');
        await eventually(() => summary.getByRole('heading').innerText()).toBe('Login Failed');
        expect(await page.locator('#co-password-error').innerText()).toBe('Invalid email or password');
        await eventually(() => page.evaluate(() => document.activeElement?.id ?? '')).toBe('co-password');
        expect(pathOf(page)).toBe('/simple-checkout');
        // Checked as the parent reads it, in view: not where a tall sticky header covers it.
        await summary.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await expectNoAxeViolations(page);
        await showEmail(page);
        await screenshot(page, `returning-parent-${device}-wrong-password`, { fullPage: false });

        // The right one: on to the signed-in checkout, with what was typed and the cart.
        await page.locator('#co-password').fill(parent.password);
        await Promise.all([page.waitForURL((url) => url.pathname === '/authcheckout'), offer.click()]);
        expect(await page.locator('.checkout-hero').innerText()).toContain(`Signed in as ${parent.email}`);
        await page.locator('#card-number').waitFor();
        expect(await page.locator('#co-address').inputValue()).toBe(PORTLAND.address);
        expect(await page.locator('#co-zip').inputValue()).toBe(PORTLAND.zipCode);
        // The book once: the copy the declined checkout left in the account's cart is the same wish.
        const lines = page.locator('.order-summary .summary-lines li');
        expect(await lines.allInnerTexts()).toEqual([expect.stringContaining(book.title)]);
        expect(await lines.locator('small').first().innerText()).toBe('× 1');
        await eventually(() => page.locator('[data-total="total"]').innerText()).toBe(PORTLAND_TOTALS.total);
        await screenshot(page, `returning-parent-${device}-signed-in-checkout`);

        await pay(page, CARDS.succeeds);
        await expectPaid(page, `returning-parent-${device}-confirmation`);
      },
      { allow: isDocumentError('/api/auth/login', 401) },
    );
  });
}

test('phone: Pay pressed before signing in: the offer at once, and signing in there pays with the card as typed', async () => {
  const parent = newCustomer('Iris');
  await declined(phone, parent);

  await withPage(
    browser,
    phone,
    async (page) => {
      await toGuestCheckout(page);
      await fillGuestDetails(page, parent);
      await fillAddress(page);
      await pay(page, CARDS.succeeds);
      const summary = page.locator('#checkout-form-problems');
      await eventually(() => summary.getByRole('heading').innerText()).toBe('Account Creation Failed');
      const offer = page.locator('#co-email-status').getByRole('button', { name: OFFER, exact: true });
      await offer.waitFor();
      await expectNoAxeViolations(page);
      await showEmail(page);
      await screenshot(page, 'returning-parent-phone-pay-pressed-offer', { fullPage: false });

      await offer.click();
      await expectPaid(page, 'returning-parent-phone-paid-in-place');
    },
    { allow: isDocumentError('/api/create-user-and-customer', 409) },
  );
});
