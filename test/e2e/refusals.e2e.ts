// How the shop tells a parent what went wrong and what happened, on a phone and on a desktop:
//
//  1. Guest checkout: an empty Pay lists every missing field at once above the form, which takes
//     the focus; each field is marked and described; a fixed field loses its message at once; the
//     live email check runs at checkout as on Create Account; the gift note counts down and stops
//     at its limit as it is typed.
//  2. Contact: a refusal keeps everything typed; over the per-network limit the summary says
//     'Failed to Send Message' and gives the shop's address to write to.
//  3. An order of two copies: the checkout's summary and the confirmation email (text and HTML)
//     give the line's total; its confirmation page and the dashboard follow its status: paid,
//     shipped with its tracking number, delivered, canceled with the amount refunded.
//  4. Sign-up, sign-in and the dashboard's profile and password forms refuse with the same
//     summary; a refused sign-up keeps everything but the passwords.
//  5. The lockout email says sign-ins failed, when, and what to do if it was not the parent, and
//     nothing in it reads as a password reset the parent asked for.
//  6. Smaller things: money with a thousands separator, line totals beside quantities, a bad sort
//     falls back with a notice, the back-in-stock answer names the book, the breakdown toggle is
//     44 px tall, the hardcover 'coming soon' reason is text, and catalogue cards add to the cart
//     without JavaScript.
//  7. Failures told where the parent is, never in an error toast: the cart page's refused
//     quantity beside its line; Add to Cart refused on the book page, on a catalogue card and in
//     the drawer; 'Access Denied' at the top of the sign-in form; at checkout, 'Missing
//     Information' beside the address and totals that cannot be worked out in their place, the
//     Pay button waiting for them; a ZIP code cut short puts the totals back to waiting for an
//     address and takes the amount off the Pay button.
// Every state is screenshotted and scanned by axe.
import { expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import {
  desktop,
  expectNoAxeViolations,
  isDocumentError,
  phone,
  registerAccount,
  screenshot,
  submitAndFollow,
  submitForm,
  withPage,
  type Shop,
  changeHeaders,
} from './harness.ts';
import {
  eventually,
  expectSummary,
  expectToast,
  newCustomer,
  pathOf,
  plentifulBook,
  PORTLAND,
  PORTLAND_TOTALS,
  type Book,
} from './steps.ts';

test.use({ shopFor: 'refusals' });

let shop: Shop;
let browser: Browser;
let db: Db;
let book: Book;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  book = await plentifulBook(shop.baseUrl);
});
test.afterAll(async () => {
  await db?.destroy();
});

const DEVICES: Array<[string, BrowserContextOptions]> = [
  ['phone', phone],
  ['desktop', desktop],
];

/** Screenshots where the parent is (the viewport), then the whole page from its top; axe; no sideways scrolling. */
async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, `refusals-${name}-viewport`, { fullPage: false });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `refusals-${name}`);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name}: no sideways scrolling`).toBe(true);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** A book on sale with a few copies (not `book`, whose price and stock other journeys rely on). */
async function scarceBook(): Promise<{ id: number; title: string; inStock: number }> {
  const found = await db('books')
    .where({ hidden: false })
    .where('inStock', '>=', 3)
    .whereNot({ id: book.id })
    .orderBy('id')
    .first<{ id: number; title: string; inStock: number } | undefined>('id', 'title', 'inStock');
  expect(found, 'a seeded book with a few copies').toBeDefined();
  return found!;
}

/** Copies sold elsewhere while the parent's page was open: the pages drawn before still offer more. */
async function setStock(id: number, inStock: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('books').where({ id }).update({ inStock });
    await bumpCatalogueVersion(trx);
  });
}

/** Puts copies in the context's cart through the JSON API, as the islands do. */
async function addThroughApi(context: BrowserContext, bookId: number, quantity: number): Promise<void> {
  const { csrfToken } = (await (await context.request.get(`${shop.baseUrl}/api/session`)).json()) as { csrfToken: string | null };
  const res = await context.request.post(`${shop.baseUrl}/api/cart`, {
    headers: changeHeaders(csrfToken),
    data: { bookId, quantity },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** The checkout summary's amounts as shown, by their data-total key (subtotal, shipping, handling, tax, total). */
function totalsShown(page: Page): Promise<Record<string, string>> {
  return page
    .locator('[data-totals] [data-total]')
    .evaluateAll((cells) => Object.fromEntries(cells.map((cell) => [cell.getAttribute('data-total')!, cell.textContent.trim()])));
}

/** An HTML email's table rows as a reader sees them: each row's words, entities decoded, spaces collapsed. */
function tableRows(html: string): string[] {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };
  return [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map(([, row]) =>
    row!
      .replace(/<[^>]+>/g, ' ')
      .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => entities[name]!)
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** For withPage's `allow`: Chromium logs an API call the shop refused as a failed resource. */
const refusedCall =
  (status: number, path: RegExp) =>
  (problem: string): boolean =>
    problem.includes(`status of ${status} `) && path.test(problem);

/**
 * A signed-in parent's paid order of two copies of `book`, made through the JSON API as the card
 * form does. `atCheckout` runs once the two copies are in the cart, before anything is paid.
 */
async function placeOrder(context: BrowserContext, atCheckout?: () => Promise<void>): Promise<number> {
  const token = async () =>
    ((await (await context.request.get(`${shop.baseUrl}/api/session`)).json()) as { csrfToken: string | null }).csrfToken;
  const post = async (path: string, data: object) => {
    const res = await context.request.post(`${shop.baseUrl}${path}`, { headers: changeHeaders(await token()), data });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const shippingInfo = { address: PORTLAND.address, city: PORTLAND.city, zipCode: PORTLAND.zipCode };
  await post('/api/cart', { bookId: book.id, quantity: 2 });
  await atCheckout?.();
  const intent = (await post('/api/create-payment-intent-authenticated', { shippingInfo })) as {
    clientSecret: string;
    paymentIntentId: string;
  };
  await post('/api/sandbox/confirm', { ...intent, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
  const done = (await post('/api/complete-order', { stripePaymentIntentId: intent.paymentIntentId, shippingInfo })) as {
    order: { id: number };
  };
  return done.order.id;
}

for (const [device, options] of DEVICES) {
  test.describe(`on a ${device}`, () => {
    test('guest checkout: every missing field at once, fixed ones cleared, the live email check and the gift note counter', async () => {
      const registered = newCustomer('Taken');
      const other = await browser.newContext();
      await registerAccount(other, shop.baseUrl, registered);
      await other.close();
      await withPage(browser, options, async (page) => {
        await page.goto(`${shop.baseUrl}/books/${book.id}`);
        await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
        await expectToast(page, 'Added to Cart!');
        await page.goto(`${shop.baseUrl}/simple-checkout`);
        await page.locator('#card-number').waitFor();
        await page.locator('#co-last').fill('Reader');
        await page.locator('#co-city').fill('Portland');
        await page.locator('button.pay-button').click();
        await expectSummary(page, 'checkout-form-problems', 'Missing Information', [
          ['co-first', 'Please enter your first name.'],
          ['co-email', 'Please enter your email address.'],
          ['co-password', 'Please choose a password.'],
          ['co-address', 'Please enter your street address.'],
          ['co-zip', 'Please enter your ZIP code.'],
        ]);
        expect(await page.locator('#checkout-form-problems p').innerText()).toBe('Please fill in all required fields');
        // What was typed stays; nothing was sent.
        expect(await page.locator('#co-last').inputValue()).toBe('Reader');
        expect(await page.locator('#payment-problem').count()).toBe(0);
        await check(page, `${device}-checkout-missing`);

        // A link in the summary takes the parent to its field.
        await page.locator('#checkout-form-problems a[href="#co-address"]').click();
        await eventually(() => focusedId(page)).toBe('co-address');

        // Fixing a field takes its message away at once; the rest stay.
        await page.locator('#co-first').fill('Tess');
        await eventually(() => page.locator('#co-first').getAttribute('aria-invalid')).toBeNull();
        expect(await page.locator('#co-first-error').count()).toBe(0);
        expect(await page.locator('#checkout-form-problems li').count()).toBe(4);

        // The live email check, as on Create Account (with the sign-in offered under it: returning-parent.e2e.ts).
        await page.locator('#co-email').fill(registered.email);
        await eventually(() => page.locator('#co-email-status .email-check').innerText()).toBe(
          'This email is already registered. Please use a different email or sign in.',
        );
        await page.locator('#co-email').fill(newCustomer('Tess').email);
        await eventually(() => page.locator('#co-email-status').innerText()).toBe('Email is available!');
        expect(await page.locator('#co-email-error').count()).toBe(0);

        // The gift note counts down and keeps no more than it can hold.
        const note = page.locator('#co-gift-note');
        await note.fill('Happy birthday!');
        expect(await page.locator('#co-gift-note-count').innerText()).toBe('185 characters left (15 of 200)');
        await note.fill('x'.repeat(230));
        expect((await note.inputValue()).length).toBe(200);
        expect(await page.locator('#co-gift-note-count').innerText()).toContain('0 characters left (200 of 200)');
        await expect(note).toHaveAccessibleDescription(/0 characters left/);
        await check(page, `${device}-checkout-fixing`);

        // Everything filled: the summary is gone.
        await page.locator('#co-password').fill('bedtime-story');
        await page.locator('#co-confirm').fill('bedtime-story');
        await page.locator('#co-address').fill(PORTLAND.address);
        await page.locator('#co-zip').fill(PORTLAND.zipCode);
        await eventually(() => page.locator('#checkout-form-problems').count()).toBe(0);
        expect(await page.locator('#checkout-form [aria-invalid="true"]').count()).toBe(0);
      });
    });

    test('contact: a refusal keeps the message, and over the limit says "Failed to Send Message" with an address to write to', async () => {
      const sent = { firstName: 'Maya', lastName: 'Okafor', email: `maya.${device}@example.com`, subject: 'A question about book sizes' };
      const fill = async (page: Page, description: string) => {
        await page.locator('#contact-first').fill(sent.firstName);
        await page.locator('#contact-last').fill(sent.lastName);
        await page.locator('#contact-email').fill(sent.email);
        await page.locator('#contact-member-no').check();
        await page.locator('#contact-subject').fill(sent.subject);
        await page.locator('#contact-message').fill(description);
      };
      await withPage(
        browser,
        options,
        async (page) => {
          await page.goto(`${shop.baseUrl}/contact`);
          // Everything missing but the name: each field marked, all at once.
          await page.locator('#contact-first').fill('Maya');
          const empty = await submitForm(page, page.getByRole('button', { name: 'Send Message' }));
          expect(empty.status()).toBe(400);
          await expectSummary(page, 'contact-problems', 'Please Complete All Fields', [
            ['contact-last', 'Please enter your last name.'],
            ['contact-email', 'Please enter your email address.'],
            ['contact-member-yes', 'Please choose Yes or No.'],
            ['contact-subject', 'Please enter a subject.'],
            ['contact-message', 'Please write your message.'],
          ]);
          expect(await page.locator('#contact-first').inputValue()).toBe('Maya');
          await check(page, `${device}-contact-missing`);

          // Three messages an hour from one visit; the fourth is refused and kept.
          for (let i = 1; i <= 3; i++) {
            await fill(page, `Message number ${i}.`);
            await submitAndFollow(page, page.getByRole('button', { name: 'Send Message' }), { post: '/contact', landing: '/contact/sent' });
            await page.getByRole('heading', { name: 'Message Sent Successfully!' }).waitFor();
            await page.getByRole('button', { name: 'Send another message' }).click();
            await page.locator('#contact-form').waitFor();
          }
          const long = 'Our copy of The Lantern in the Wood arrived with a torn cover. '.repeat(6).trim();
          await fill(page, long);
          const refused = await submitForm(page, page.getByRole('button', { name: 'Send Message' }));
          expect(refused.status()).toBe(429);
          const summary = page.locator('#contact-problems');
          await eventually(() => focusedId(page)).toBe('contact-problems');
          expect(await summary.getByRole('heading').innerText()).toBe('Failed to Send Message');
          expect(await summary.innerText()).toContain('Too many messages from your network.');
          expect(await page.getByText('Please Try Again Later').count()).toBe(0);
          expect(await page.locator('#contact-message').inputValue()).toBe(long);
          expect(await page.locator('#contact-subject').inputValue()).toBe(sent.subject);
          expect(await page.locator('#contact-member-no').isChecked()).toBe(true);
          const write = page.locator('.contact-fallback a[href^="mailto:"]');
          expect(await write.getAttribute('href')).toBe('mailto:hello@littlelanternbooks.example');
          expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
          await check(page, `${device}-contact-refused`);
        },
        { allow: (p) => isDocumentError('/contact', 400)(p) || isDocumentError('/contact', 429)(p) },
      );
    });

    test("an order's page and the dashboard follow its status: paid, shipped, delivered, canceled", async ({ mail }) => {
      const parent = newCustomer('Rosa');
      await withPage(browser, options, async (page, { context }) => {
        await registerAccount(context, shop.baseUrl, parent);
        const twoCopies = `$${((book.priceCents * 2) / 100).toFixed(2)}`;
        const orderId = await placeOrder(context, async () => {
          // Before paying, the checkout's summary says what the two copies come to, beside the
          // quantity: the price of one there would read as the whole line.
          await page.goto(`${shop.baseUrl}/authcheckout`);
          const line = page.locator('.order-summary .summary-lines li');
          await expect(line).toHaveCount(1);
          expect(await line.locator('.summary-title').innerText()).toBe(`${book.title} × 2`);
          expect(await line.locator(':scope > span').last().innerText()).toBe(twoCopies);
          await check(page, `${device}-checkout-two-copies`);
        });
        const confirmation = async () => {
          const res = await page.goto(`${shop.baseUrl}/order-confirmation?orderId=${orderId}`);
          expect(res?.status()).toBe(200);
        };
        const dashboardOrder = async () => {
          await page.goto(`${shop.baseUrl}/dashboard?tab=orders`);
          return page.locator('#panel-orders li.order').first();
        };

        await confirmation();
        expect(await page.locator('h1').innerText()).toBe('Order Confirmed!');
        // The line says what two copies come to, beside the price of one.
        const line = page.locator('.summary-lines li').first();
        expect(await line.innerText()).toContain(`($${book.price} each)`);
        expect(await line.innerText()).toContain(twoCopies);
        await check(page, `${device}-order-paid`);

        // The confirmation email says it too, in its plain text and in its HTML table: the
        // quantity, the price of one and what the line comes to.
        const confirmed = await mail.latest(parent.email, `Your order #${orderId} is confirmed`);
        expect(confirmed.text).toContain(`- ${book.title} (qty 2, $${book.price} each): ${twoCopies}`);
        expect(tableRows(confirmed.html)).toContainEqual(`${book.title} ($${book.price} each) 2 ${twoCopies}`);

        await db('orders').where({ id: orderId }).update({ status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490' });
        await confirmation();
        expect(await page.locator('h1').innerText()).toBe('Your Order Is on Its Way');
        expect(await page.locator('.confirmation-header').innerText()).toContain(
          'shipped with USPS. Its tracking number is 9400111899223197428490.',
        );
        expect(await page.getByText('Order Confirmed!').count()).toBe(0);
        await check(page, `${device}-order-shipped`);

        await db('orders').where({ id: orderId }).update({ status: 'delivered' });
        await confirmation();
        expect(await page.locator('h1').innerText()).toBe('Order Delivered');

        // Canceled in full: the whole total went back to the card.
        const order = await db<{ id: number; totalAmount: string | number }>('orders').where({ id: orderId }).first('totalAmount');
        const refunded = Number(order!.totalAmount).toFixed(2);
        await db('orders').where({ id: orderId }).update({ status: 'canceled', refundedAmount: refunded });
        await confirmation();
        expect(await page.locator('h1').innerText()).toBe('Order Canceled');
        const header = await page.locator('.confirmation-header').innerText();
        expect(header).toContain(`Order #${orderId} was canceled and $${refunded} was refunded to your card.`);
        expect(header).not.toContain('ship within');
        expect(await page.locator('.status').innerText()).toBe('Canceled');
        await check(page, `${device}-order-canceled`);

        const listed = await dashboardOrder();
        expect(await listed.locator('.order-story-heading').innerText()).toBe('Order Canceled');
        expect(await listed.innerText()).toContain(`$${refunded} was refunded to your card.`);
        // Two copies: the line total beside the quantity.
        expect(await listed.locator('.order-items li').first().innerText()).toContain(`2 × ${book.title}`);
        // The breakdown toggle is a thumb's height on every screen.
        const toggle = listed.locator('details.breakdown > summary');
        expect((await toggle.boundingBox())!.height).toBeGreaterThanOrEqual(44);
        await toggle.click();
        await check(page, `${device}-dashboard-order-canceled`);
      });
    });

    test('sign-up, sign-in, profile and password refuse with the same summary, keeping all but passwords', async () => {
      const parent = newCustomer('Iris');
      await withPage(
        browser,
        options,
        async (page, { context }) => {
          await page.goto(`${shop.baseUrl}/login?tab=signup`);
          await page.locator('#signup-last').fill('Mensah');
          await page.locator('#signup-email').fill('iris-at-home');
          await page.locator('#signup-password').fill('123');
          await page.locator('#signup-confirm').fill('1234');
          const refused = await submitForm(page, page.getByRole('button', { name: 'Create Account', exact: true }));
          expect(refused.status()).toBe(400);
          await expectSummary(page, 'signup-problems', 'Signup Failed', [
            ['signup-first', 'Please enter your first name.'],
            ['signup-email', 'Please enter a valid email address'],
            ['signup-password', 'Password must be at least 6 characters long'],
            ['signup-confirm', 'Passwords do not match'],
          ]);
          expect(await page.locator('#signup-last').inputValue()).toBe('Mensah');
          expect(await page.locator('#signup-email').inputValue()).toBe('iris-at-home');
          expect(await page.locator('#signup-password').inputValue()).toBe('');
          await check(page, `${device}-signup-refused`);

          await page.goto(`${shop.baseUrl}/login`);
          await page.locator('#signin-email').fill(parent.email);
          const missing = await submitForm(page, page.getByRole('button', { name: 'Sign In', exact: true }));
          expect(missing.status()).toBe(400);
          await expectSummary(page, 'signin-problems', 'Missing Information', [['signin-password', 'Please enter your password.']]);
          expect(await page.locator('#signin-email').inputValue()).toBe(parent.email);
          await check(page, `${device}-signin-refused`);

          await registerAccount(context, shop.baseUrl, parent);
          await page.goto(`${shop.baseUrl}/dashboard?tab=profile&edit=1`);
          await page.locator('#profile-first').fill(' ');
          await page.locator('#profile-last').fill('Okoro');
          await submitForm(page, page.getByRole('button', { name: 'Save Changes' }));
          await expectSummary(page, 'profile-problems', 'Update Failed', [['profile-first', 'First name is required.']]);
          expect(await page.locator('#profile-last').inputValue()).toBe('Okoro');
          await check(page, `${device}-profile-refused`);

          await page.goto(`${shop.baseUrl}/dashboard?tab=settings`);
          await page.locator('details.password-change > summary').click();
          await page.locator('#current-password').fill('not-my-password');
          await page.locator('#settings-new-password').fill('abcdefg');
          await page.locator('#settings-confirm-password').fill('abcdefh');
          await submitForm(page, page.getByRole('button', { name: 'Change Password', exact: true }));
          await expectSummary(page, 'password-problems', 'Password Change Failed', [
            ['settings-confirm-password', 'New passwords do not match.'],
          ]);
          expect(await page.locator('#settings-new-password').inputValue()).toBe('');
          await check(page, `${device}-password-refused`);
          await page.locator('#current-password').fill('not-my-password');
          await page.locator('#settings-new-password').fill('abcdefg');
          await page.locator('#settings-confirm-password').fill('abcdefg');
          await submitForm(page, page.getByRole('button', { name: 'Change Password', exact: true }));
          await expectSummary(page, 'password-problems', 'Password Change Failed', [
            ['current-password', 'Your current password is not correct.'],
          ]);
        },
        {
          allow: (p) =>
            isDocumentError('/signup', 400)(p) ||
            isDocumentError('/login', 400)(p) ||
            isDocumentError('/dashboard/profile', 400)(p) ||
            isDocumentError('/dashboard/password', 400)(p),
        },
      );
    });

    test('the lockout email says sign-ins failed, when, and what to do if it was not the parent', async ({ mail }) => {
      const parent = newCustomer('Lena');
      const other = await browser.newContext();
      await registerAccount(other, shop.baseUrl, parent);
      await other.close();
      await withPage(
        browser,
        options,
        async (page) => {
          for (let attempt = 1; attempt <= 5; attempt++) {
            await page.goto(`${shop.baseUrl}/login`);
            await page.locator('#signin-email').fill(parent.email);
            await page.locator('#signin-password').fill(`wrong-${attempt}`);
            await submitForm(page, page.getByRole('button', { name: 'Sign In', exact: true }));
          }
          expect(pathOf(page)).toBe('/failedlogin');
        },
        { allow: isDocumentError('/login', 401) },
      );
      const day = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date());
      const said = await mail.latestLink(parent.email, /a wrong password 5 times in a row, the last time on [^\n]+? UTC\./);
      expect(said).toContain(day);
      expect(await mail.latestLink(parent.email, /Was it not you\?/)).toBe('Was it not you?');
      expect(await mail.latestLink(parent.email, /Subject: [^\n]+/)).toContain('We secured your account after failed sign-ins');
      // Nobody asked for this password: the shop switched the old one off. A line written for a
      // reset the parent requested would tell them the opposite of what happened, in either version.
      const lockout = await mail.latest(parent.email, 'We secured your account after failed sign-ins');
      for (const [version, body] of [
        ['text', lockout.text],
        ['HTML', lockout.html],
      ] as const) {
        expect(body, `the ${version} version`).toContain('Was it not you?');
        expect(body, `the ${version} version`).not.toContain('If you did not ask for a new password');
      }
    });

    test('money with a thousands separator and line totals in the cart; a bad sort falls back with a notice', async () => {
      const before = (await db('books').where({ id: book.id }).first<{ price: string | number }>('price')).price;
      await db.transaction(async (trx) => {
        await trx('books').where({ id: book.id }).update({ price: '2099.00' });
        await bumpCatalogueVersion(trx);
      });
      try {
        await withPage(browser, options, async (page) => {
          await page.goto(`${shop.baseUrl}/books/${book.id}`);
          expect(await page.locator('.price-line .price').innerText()).toBe('$2,099.00');
          await page.locator('form[data-add-to-cart]').getByLabel('Quantity').selectOption('2');
          await page.locator('form[data-add-to-cart]').getByRole('button', { name: 'Add to Cart', exact: true }).click();
          await expectToast(page, 'Added to Cart!');
          await page.locator('[data-cart-button]').click();
          const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
          await drawer.locator('.cart-line').first().waitFor();
          expect(await drawer.locator('.cart-line-total').first().innerText()).toBe('2 × $2,099.00 = $4,198.00');
          expect(await drawer.locator('.cart-total strong').innerText()).toBe('$4,198.00');
          await screenshot(page, `refusals-${device}-drawer-thousands`, { fullPage: false });
          await expectNoAxeViolations(page);

          // A sort the catalogue does not know: the usual order and a notice, not an error page.
          const res = await page.goto(`${shop.baseUrl}/books?sort=cheapest`);
          expect(res?.status()).toBe(200);
          expect(await page.locator('h1').innerText()).toBe('Our Books');
          expect(await page.locator('.finder-notice').innerText()).toBe(
            "We can't sort by \u201ccheapest\u201d, so the books are in our usual order.",
          );
          // The long price wraps inside its card.
          await check(page, `${device}-catalogue-bad-sort`);
        });
      } finally {
        await db.transaction(async (trx) => {
          await trx('books').where({ id: book.id }).update({ price: before });
          await bumpCatalogueVersion(trx);
        });
      }
    });

    test('the hardcover that is not out says so in words, and the back-in-stock answer names the book', async () => {
      const soon = await db('books').where({ amazonUrl: '#coming-soon', hidden: false }).first<{ id: number } | undefined>('id');
      expect(soon, 'a seeded book whose hardcover is coming soon').toBeDefined();
      const waiting = await db('books')
        .where({ inStock: 0, hidden: false })
        .first<{ id: number; title: string } | undefined>('id', 'title');
      expect(waiting, 'a seeded Coming Soon book').toBeDefined();
      await withPage(browser, options, async (page) => {
        await page.goto(`${shop.baseUrl}/books/${soon!.id}`);
        const button = page.getByRole('button', { name: 'Buy Hardcover' });
        await expect(button).toHaveAccessibleDescription('Hardcover coming soon');
        expect(await page.locator('#soon-buy-hardcover').isVisible()).toBe(true);
        await check(page, `${device}-hardcover-coming-soon`);

        await page.goto(`${shop.baseUrl}/books/${waiting!.id}`);
        await page.getByLabel('Your email address').fill(`waiting.${device}@example.com`);
        const answer = await submitForm(page, page.getByRole('button', { name: "Email me when it's back" }));
        expect(answer.status()).toBe(200);
        await expect(page.getByRole('heading', { name: `We'll email you when ${waiting!.title} is back` })).toBeVisible();
        await check(page, `${device}-back-in-stock-named`);
      });
    });

    test('the cart page tells a refused quantity beside its line, keeps what was typed, and no toast says it', async () => {
      const scarce = await scarceBook();
      try {
        await withPage(browser, options, async (page, { context }) => {
          await addThroughApi(context, scarce.id, 1);
          await page.goto(`${shop.baseUrl}/cart`);
          const quantity = page.locator(`#qty-${scarce.id}`);
          await quantity.fill('2');
          // Sold elsewhere while the page was open: the page still allows two.
          await setStock(scarce.id, 1);
          await submitAndFollow(page, page.locator('form.cart-line-quantity', { has: quantity }).getByRole('button', { name: 'Update' }), {
            post: `/cart/items/${scarce.id}`,
            landing: '/cart',
          });
          await expectSummary(page, `cart-line-${scarce.id}-problems`, 'Failed to update cart', [
            [`qty-${scarce.id}`, `Only 1 copy of "${scarce.title}" is available.`],
          ]);
          // The message sits in the line it is about.
          const line = page.locator('li.cart-line', { has: quantity });
          expect(await line.locator('.field-error').innerText()).toBe(`Only 1 copy of "${scarce.title}" is available.`);
          expect(await quantity.inputValue()).toBe('2');
          await check(page, `${device}-cart-refused`);

          // Put right, the page says so no more.
          await quantity.fill('1');
          await submitAndFollow(page, line.getByRole('button', { name: 'Update' }), { post: `/cart/items/${scarce.id}`, landing: '/cart' });
          expect(await page.locator('[data-form-problems], .field-error, [aria-invalid="true"]').count()).toBe(0);
        });
      } finally {
        await setStock(scarce.id, scarce.inStock);
      }
    });

    test('Add to Cart refused on the book page, on a catalogue card and in the drawer: told there, never in a toast', async () => {
      const scarce = await scarceBook();
      const fewer = `Only 1 copy of "${scarce.title}" is available.`;
      try {
        await withPage(
          browser,
          options,
          async (page) => {
            // The book page, drawn while there were copies to spare.
            await page.goto(`${shop.baseUrl}/books/${scarce.id}`);
            await setStock(scarce.id, 1);
            const form = page.locator('form[data-add-to-cart]');
            await form.getByLabel('Quantity').selectOption('3');
            await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
            await expectSummary(page, `add-to-cart-${scarce.id}-problems`, 'Failed to add item to cart', [['quantity', fewer]]);
            expect(await form.getByLabel('Quantity').inputValue()).toBe('3');
            await check(page, `${device}-add-to-cart-refused`);

            // One copy goes in: the toast confirms it and the refusal is gone.
            await form.getByLabel('Quantity').selectOption('1');
            await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
            await expectToast(page, 'Added to Cart!');
            expect(await form.locator('[data-form-problems], .field-error').count()).toBe(0);

            // A catalogue card: the reason beside its button, read with it; the focus stays there.
            await page.goto(`${shop.baseUrl}/books`);
            const card = page.locator('.book-card', { has: page.locator(`a[href="/books/${scarce.id}"]`) });
            const add = card.getByRole('button', { name: `Add to Cart: ${scarce.title}` });
            await add.click();
            const said = card.locator('.field-error');
            await said.waitFor();
            expect(await said.getAttribute('role')).toBe('alert');
            expect(await said.innerText()).toBe(fewer);
            await expect(add).toHaveAccessibleDescription(fewer);
            await eventually(() => add.evaluate((button) => button === document.activeElement)).toBe(true);
            expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
            await said.scrollIntoViewIfNeeded();
            await screenshot(page, `refusals-${device}-card-refused-viewport`, { fullPage: false });
            await expectNoAxeViolations(page);

            // The drawer, opened while there were copies to spare: plus is refused beside the line.
            await setStock(scarce.id, 5);
            await page.locator('[data-cart-button]').click();
            const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
            const plus = drawer.getByRole('button', { name: `One more ${scarce.title}` });
            await plus.waitFor();
            await setStock(scarce.id, 1);
            await plus.click();
            const inLine = drawer.locator('li.cart-line', { hasText: scarce.title }).getByRole('alert');
            await eventually(() => inLine.innerText()).toBe(fewer);
            await expect(plus).toHaveAccessibleDescription(fewer);
            expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
            await screenshot(page, `refusals-${device}-drawer-refused`, { fullPage: false });
            await expectNoAxeViolations(page);
          },
          { allow: refusedCall(409, /\/api\/cart(\/\d+)?:0\)$/) },
        );
      } finally {
        await setStock(scarce.id, scarce.inStock);
      }
    });

    test("a visitor sent from the dashboard reads 'Access Denied' at the top of the sign-in form, not in a toast", async () => {
      const parent = newCustomer('Noor');
      const other = await browser.newContext();
      await registerAccount(other, shop.baseUrl, parent);
      await other.close();
      await withPage(browser, options, async (page) => {
        await page.goto(`${shop.baseUrl}/dashboard`);
        expect(pathOf(page)).toBe('/login');
        await expectSummary(page, 'signin-problems', 'Access Denied', []);
        expect(await page.locator('#signin-problems li').innerText()).toBe('Please log in to access your dashboard.');
        // First in the sign-in form, on the Sign In tab.
        expect(await page.locator('#signin-form > :first-child').getAttribute('id')).toBe('signin-problems');
        expect(await page.locator('#panel-signin').isVisible()).toBe(true);
        expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
        await check(page, `${device}-access-denied`);

        await page.locator('#signin-email').fill(parent.email);
        await page.locator('#signin-password').fill(parent.password);
        await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/dashboard' });
        await expectToast(page, 'Welcome back!');
      });
    });

    test("checkout: 'Missing Information' beside the address, and totals that cannot be worked out told in their place", async () => {
      await withPage(
        browser,
        options,
        async (page, { context }) => {
          await addThroughApi(context, book.id, 1);
          await page.goto(`${shop.baseUrl}/simple-checkout`);
          await page.locator('#card-number').waitFor();

          await page.locator('#co-address').fill(PORTLAND.address);
          const validate = page.getByRole('button', { name: 'Validate Address' });
          await validate.click();
          const missing = page.locator('#address-check-problem');
          await missing.waitFor();
          expect(await missing.getAttribute('role')).toBe('alert');
          expect(await missing.locator('.form-problems-title').innerText()).toBe('Missing Information');
          expect(await missing.locator('p').innerText()).toBe('Please enter a complete address first');
          for (const id of ['co-city', 'co-zip']) {
            expect(await page.locator(`#${id}`).getAttribute('aria-invalid'), id).toBe('true');
            await expect(page.locator(`#${id}`)).toHaveAccessibleDescription(/Please enter a complete address first/);
          }
          expect(await page.locator('#co-address').getAttribute('aria-invalid')).toBeNull();
          await expect(validate).toHaveAccessibleDescription(/Please enter a complete address first/);
          expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
          await missing.scrollIntoViewIfNeeded();
          await check(page, `${device}-checkout-address-missing`);

          // The server cannot work the totals out: no amount is offered and Pay waits.
          await page.route('**/api/calculate-totals', (route) =>
            route.fulfill({ status: 500, json: { message: 'Something went wrong. Please try again.' } }),
          );
          await page.locator('#co-city').fill(PORTLAND.city);
          await page.locator('#co-zip').fill(PORTLAND.zipCode);
          await eventually(() => missing.count()).toBe(0);
          const inSummary = page.locator('#totals-problem');
          await eventually(() => inSummary.innerText()).toBe('Failed to calculate shipping and tax');
          expect(await inSummary.getAttribute('role')).toBe('alert');
          expect(await page.locator('[data-total="total"]').isVisible()).toBe(false);
          const beside = page.locator('#checkout-form .totals-problem');
          expect(await beside.innerText()).toContain('Failed to calculate shipping and tax');
          const pay = page.locator('button.pay-button');
          expect(await pay.innerText()).toBe('Pay Now');
          expect(await pay.getAttribute('aria-disabled')).toBe('true');
          await expect(pay).toHaveAccessibleDescription('Failed to calculate shipping and tax');
          expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
          await beside.scrollIntoViewIfNeeded();
          await check(page, `${device}-checkout-totals-failed`);

          // Asked again once the server answers: the totals come back and Pay offers them.
          await page.unroute('**/api/calculate-totals');
          await beside.getByRole('button', { name: 'Try again' }).click();
          await eventually(() => page.locator('[data-total="total"]').innerText()).toBe(PORTLAND_TOTALS.total);
          expect(await page.locator('[data-totals-problem]').count()).toBe(0);
          await eventually(() => pay.innerText()).toBe(`Pay ${PORTLAND_TOTALS.total}`);
          expect(await pay.getAttribute('aria-disabled')).toBeNull();

          // A digit taken off the ZIP code: those totals were for an address no longer in the form,
          // so the summary goes back to waiting for one and Pay offers no amount it cannot keep.
          const zip = page.locator('#co-zip');
          await zip.press('End');
          await zip.press('Backspace');
          expect(await zip.inputValue()).toBe(PORTLAND.zipCode.slice(0, -1));
          await eventually(() => totalsShown(page)).toEqual({
            subtotal: PORTLAND_TOTALS.subtotal,
            shipping: 'Enter your address',
            handling: '-',
            tax: '-',
            total: '-',
          });
          await eventually(() => pay.innerText()).toBe('Pay Now');
          expect(await page.locator('[data-total="total"]').isVisible()).toBe(true);
          expect(await page.locator('[data-totals-problem]').count()).toBe(0);
          await check(page, `${device}-checkout-zip-shortened`);

          // The digit typed back: the totals are asked for again and Pay offers them.
          await zip.press('End');
          await zip.pressSequentially(PORTLAND.zipCode.slice(-1));
          await eventually(() => page.locator('[data-total="total"]').innerText()).toBe(PORTLAND_TOTALS.total);
          await eventually(() => pay.innerText()).toBe(`Pay ${PORTLAND_TOTALS.total}`);
        },
        { allow: refusedCall(500, /\/api\/calculate-totals:0\)$/) },
      );
    });

    test('a catalogue card adds to the cart with JavaScript off', async () => {
      await withPage(browser, { ...options, javaScriptEnabled: false }, async (page) => {
        await page.goto(`${shop.baseUrl}/books`);
        const card = page.locator('.book-card', { has: page.locator(`a[href="/books/${book.id}"]`) });
        await submitAndFollow(page, card.getByRole('button', { name: `Add to Cart: ${book.title}` }), { post: '/cart', landing: '/books' });
        expect(await page.locator('[data-toasts] .toast-title').innerText()).toBe('Added to Cart!');
        expect(await page.locator('[data-cart-badge]').innerText()).toBe('1');
        // axe needs script: the screenshot is the check here; with script on, the same page is scanned above.
        await screenshot(page, `refusals-${device}-catalogue-added-without-script`);
      });
    });
  });
}
