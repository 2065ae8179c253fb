// axe (WCAG 2.2 A and AA, the harness's AXE_TAGS) on every page of the shop and on the states a
// parent meets in them: the cart drawer, the forgot-password dialog and the bank's 3D Secure
// dialog open, and every form showing its errors. Each state runs at phone and desktop size,
// and leaves a screenshot as a11y-<viewport>-<state>.png. The admin pages: admin.e2e.ts.
//
// Adding a page is one line in STATES: a name and a function that gets a fresh page there.
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import type { Mailbox } from './mailbox.ts';
import {
  desktop,
  expectNoAxeViolations,
  isDocumentError,
  phone,
  registerAccount,
  screenshot,
  submitForm,
  withPage,
  type Shop,
  changeHeaders,
} from './harness.ts';
import { eventually, fillGuestDetails, newCustomer, plentifulBook, PORTLAND, type Book } from './steps.ts';

test.use({ shopFor: 'a11y' });
// Every state opens its own page, signing up its own parent: the two workers can share them,
// each on its own shop, instead of one worker taking every page of both viewports.
test.describe.configure({ mode: 'parallel' });

let shop: Shop;
let browser: Browser;
let mail: Mailbox;
let book: Book;

test.beforeAll(async ({ browser: launched, shop: started, mail: mailed }) => {
  shop = started;
  mail = mailed;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

// ---------------------------------------------------------------------------------------------
// Getting a page into a state

/** Opens `pathname` and insists on its status. */
async function visit(page: Page, pathname: string, status = 200): Promise<void> {
  const res = await page.goto(`${shop.baseUrl}${pathname}`);
  expect(res?.status(), `GET ${pathname}`).toBe(status);
}

/** Opens one of the shop's own pages and checks it is the page its link promises. */
async function visitTitled(page: Page, pathname: string, heading: string): Promise<void> {
  await visit(page, pathname);
  await expect(page.locator('h1')).toHaveCount(1);
  expect(await page.locator('h1').innerText()).toContain(heading);
}

/** One copy of the book in this browser's cart, through the JSON API. */
async function putBookInCart(page: Page): Promise<void> {
  const session = await page.request.get(`${shop.baseUrl}/api/session`);
  const { csrfToken } = (await session.json()) as { csrfToken: string | null };
  const res = await page.request.post(`${shop.baseUrl}/api/cart`, {
    headers: changeHeaders(csrfToken),
    data: { bookId: book.id, quantity: 1 },
  });
  expect(res.status(), `POST /api/cart: ${await res.text()}`).toBeLessThan(300);
}

async function signIn(page: Page): Promise<void> {
  await registerAccount(page.context(), shop.baseUrl, newCustomer('Axel'));
}

/** Submits the form around `submit` as it is (empty unless filled) and expects `status` back. */
async function submitEmpty(page: Page, submit: string, status: number): Promise<void> {
  const response = await submitForm(page, page.locator(submit));
  expect(response.status(), `POST ${new URL(response.url()).pathname}`).toBe(status);
}

async function guestCheckout(page: Page): Promise<void> {
  await putBookInCart(page);
  await visit(page, '/simple-checkout');
  await page.locator('#card-number').waitFor();
}

/** The guest checkout filled in with `card`, and Pay pressed. */
async function payAsGuest(page: Page, card: string): Promise<void> {
  await guestCheckout(page);
  await fillGuestDetails(page, newCustomer('Ava'));
  await page.locator('#co-address').fill(PORTLAND.address);
  await page.locator('#co-city').fill(PORTLAND.city);
  await page.locator('#co-zip').fill(PORTLAND.zipCode);
  await page.locator('#card-number').fill(card);
  await page.locator('#card-expiry').fill(`12/${(new Date().getFullYear() + 3) % 100}`);
  await page.locator('#card-cvc').fill('123');
  await eventually(() => page.locator('button.pay-button').innerText()).toMatch(/^Pay \$\d+\.\d\d$/);
  await page.locator('button.pay-button').click();
}

/** The newest reset link mailed to `email`. */
const resetLinkFor = (email: string) => mail.latestLink(email, /\/reset-password\/[\w-]+/);

interface State {
  name: string;
  go(page: Page): Promise<void>;
  /** Chromium logs a document answered with an error status; the state expects that one. */
  allow?: (problem: string) => boolean;
}

const STATES: State[] = [
  { name: 'home', go: (p) => visit(p, '/') },
  { name: 'catalogue', go: (p) => visit(p, '/books') },
  { name: 'book', go: (p) => visit(p, `/books/${book.id}`) },
  { name: 'book-not-found', go: (p) => visit(p, '/books/999999', 404), allow: isDocumentError('/books/999999') },
  { name: 'about', go: (p) => visitTitled(p, '/about', 'About') },
  { name: 'contact', go: (p) => visitTitled(p, '/contact', 'Contact') },
  {
    name: 'contact-errors',
    go: async (p) => (await visit(p, '/contact'), submitEmpty(p, 'form[data-contact-form] button[type="submit"]', 400)),
    allow: isDocumentError('/contact', 400),
  },
  { name: 'privacy', go: (p) => visitTitled(p, '/privacy', 'Privacy Policy') },
  { name: 'terms', go: (p) => visitTitled(p, '/termsofuse', 'Terms of Use') },
  { name: 'copyright', go: (p) => visitTitled(p, '/copyrighttrademark', 'Copyright') },
  { name: 'login', go: (p) => visit(p, '/login') },
  {
    name: 'login-errors',
    go: async (p) => (await visit(p, '/login'), submitEmpty(p, 'form[action="/login"] button[type="submit"]', 400)),
    allow: isDocumentError('/login', 400),
  },
  { name: 'register', go: async (p) => (await visit(p, '/login'), p.getByRole('tab', { name: 'Create Account', exact: true }).click()) },
  {
    name: 'register-errors',
    go: async (p) => {
      await visit(p, '/login');
      await p.getByRole('tab', { name: 'Create Account', exact: true }).click();
      await submitEmpty(p, 'form[action="/signup"] button[type="submit"]', 400);
    },
    allow: isDocumentError('/signup', 400),
  },
  {
    name: 'forgot-password-dialog',
    go: async (p) => {
      await visit(p, '/login');
      await p.getByRole('link', { name: 'Forgot password?', exact: true }).click();
      await p.getByRole('dialog', { name: 'Forgot your password?' }).waitFor();
    },
  },
  { name: 'reset-request', go: (p) => visit(p, '/reset-password') },
  {
    name: 'reset-request-errors',
    go: async (p) => (await visit(p, '/reset-password'), submitEmpty(p, 'main button[type="submit"]', 400)),
    allow: isDocumentError('/reset-password', 400),
  },
  {
    name: 'reset-new-password-errors',
    go: async (p) => {
      const customer = newCustomer('Rita');
      await registerAccount(p.context(), shop.baseUrl, customer);
      await p.context().clearCookies();
      await visit(p, '/reset-password');
      await p.locator('main input[type="email"]').fill(customer.email);
      await submitForm(p, p.locator('main button[type="submit"]'));
      const link = await resetLinkFor(customer.email);
      await visit(p, link);
      await submitEmpty(p, 'main button[type="submit"]', 400);
    },
    allow: (problem) => problem.includes('status of 400 ') && problem.includes('/reset-password/'),
  },
  {
    name: 'reset-link-invalid',
    go: (p) => visit(p, '/reset-password/not-a-real-token', 400),
    allow: isDocumentError('/reset-password/not-a-real-token', 400),
  },
  { name: 'failedlogin', go: (p) => visit(p, '/failedlogin') },
  { name: 'cart-empty', go: (p) => visit(p, '/cart') },
  { name: 'cart', go: async (p) => (await putBookInCart(p), visit(p, '/cart')) },
  {
    name: 'cart-drawer',
    go: async (p) => {
      await putBookInCart(p);
      await visit(p, `/books/${book.id}`);
      await p.locator('[data-cart-button]').click();
      await p.getByRole('dialog', { name: 'Shopping Cart' }).locator('.cart-line').waitFor();
    },
  },
  { name: 'checkout-empty', go: (p) => visit(p, '/simple-checkout') },
  { name: 'checkout-guest', go: guestCheckout },
  {
    name: 'checkout-errors',
    go: async (p) => {
      await guestCheckout(p);
      await p.locator('button.pay-button').click();
      // Every missing field listed above the form, which takes the focus; no toast.
      await p.locator('#checkout-form > [data-form-problems]').waitFor();
      await p.locator('#co-first[aria-invalid="true"]').waitFor();
    },
  },
  { name: 'checkout-signed-in', go: async (p) => (await signIn(p), await putBookInCart(p), visit(p, '/authcheckout')) },
  {
    name: 'checkout-3ds-dialog',
    go: async (p) => {
      await payAsGuest(p, '4000 0025 0000 3155');
      await p.getByRole('dialog', { name: 'Confirm this payment' }).waitFor();
    },
  },
  {
    name: 'order-confirmation',
    go: async (p) => {
      await payAsGuest(p, '4242 4242 4242 4242');
      await p.waitForURL((url) => url.pathname === '/order-confirmation', { timeout: 30_000 });
      expect(await p.locator('h1').innerText()).toBe('Order Confirmed!');
    },
  },
  { name: 'order-not-found', go: (p) => visit(p, '/order-confirmation', 404), allow: isDocumentError('/order-confirmation') },
  { name: 'dashboard', go: async (p) => (await signIn(p), visit(p, '/dashboard')) },
  { name: 'not-found', go: (p) => visit(p, '/no-such-page', 404), allow: isDocumentError('/no-such-page') },
];

const VIEWPORTS: Array<[string, BrowserContextOptions]> = [
  ['phone', phone],
  ['desktop', { ...desktop, viewport: { width: 1280, height: 800 } }],
];

for (const [viewport, options] of VIEWPORTS) {
  test.describe(`axe at ${viewport} size`, () => {
    for (const state of STATES) {
      test(state.name, async () => {
        await withPage(
          browser,
          options,
          async (page) => {
            await state.go(page);
            await screenshot(page, `a11y-${viewport}-${state.name}`, { fullPage: false });
            await expectNoAxeViolations(page);
          },
          { allow: state.allow },
        );
      });
    }
  });
}
