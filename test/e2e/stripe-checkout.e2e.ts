// Checkout with real Stripe keys, on a phone. Nothing leaves the machine:
//
//  - Stripe's REST API is test/helpers/stripe-stand-in.ts, started in this process; the shop's
//    stripe SDK talks to it (STRIPE_API_URL).
//  - Stripe.js (https://js.stripe.com/...) is a small fake served by context.route(). Its card
//    element is a labelled text input; its confirmCardPayment() records what the card island
//    sent and asks this process (context.exposeBinding) to do what Stripe would: move the
//    stand-in's intent to 'succeeded', or leave it and answer with a decline for the decline card.
//
//  1. A guest: the home and catalogue pages load nothing from js.stripe.com; the checkout page's
//     CSP allows it in script-src; details, Portland 97205, totals, card, Pay -> 'Payment
//     Successful!' -> the order confirmation. Stripe.js received the guest's billing details,
//     and the API a POST /v1/payment_intents for 2748 cents with an Idempotency-Key.
//  2. A guest whose card is declined: 'Payment Failed' / 'Your card was declined.', still on the
//     checkout page, no order.
import { expect, type Browser, type BrowserContext, type Page, type Response } from '@playwright/test';
import { test as shopTest } from './fixtures.ts';
import { expectNoAxeViolations, phone, withPage, type Shop } from './harness.ts';
import {
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
import { startStripeStandIn, type RecordedRequest, type StripeStandIn } from '../helpers/stripe-stand-in.ts';

const PUBLISHABLE_KEY = 'pk_test_e2e';
const WEBHOOK_SECRET = 'whsec_e2e';

let standIn: StripeStandIn;
let shop: Shop;
let browser: Browser;

/** A $16.99 book with plenty of copies. */
let book: Book;

const PORTLAND_TOTAL_CENTS = 27_48;

/** Card numbers typed into the fake card element; the test process decides what each does. */
const CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;
const DECLINE_MESSAGE = 'Your card was declined.';

// The Stripe stand-in runs in the worker, and the file's shop talks to it.
const test = shopTest.extend<object, { standIn: StripeStandIn }>({
  standIn: [
    // Playwright reads a fixture's dependencies from this pattern: an empty one says "none".
    // eslint-disable-next-line no-empty-pattern -- the form Playwright requires
    async ({}, use) => {
      const running = await startStripeStandIn();
      await use(running);
      await running.close();
    },
    { scope: 'worker' },
  ],
  shopEnv: [
    async ({ standIn: running }, use) =>
      use({
        STRIPE_SECRET_KEY: running.secretKey,
        STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: running.url,
      }),
    { scope: 'worker' },
  ],
});
test.use({ shopFor: 'stripe-checkout' });

test.beforeAll(async ({ browser: launched, shop: started, standIn: running }) => {
  standIn = running;
  shop = started;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

// ---------------------------------------------------------------------------------------------
// The fake Stripe.js

/** What the fake's confirmCardPayment() hands the test process. */
interface Confirmation {
  publishableKey: string;
  clientSecret: string;
  /** The card element passed as payment_method.card: its type and what was typed into it. */
  card: { type: string; options: unknown; number: string } | null;
  /** payment_method without the card element. */
  paymentMethod: { billing_details?: BillingDetails } & Record<string, unknown>;
  options: unknown;
}

interface BillingDetails {
  name?: string;
  email?: string;
  address?: { line1?: string; city?: string; postal_code?: string; country?: string };
}

type ConfirmAnswer =
  | { paymentIntent: { id: string; object: 'payment_intent'; status: string; amount: number; currency: string } }
  | { error: { type: string; code?: string; decline_code?: string; message: string } };

const BINDING = '__stripeStandInConfirm';

/**
 * Served for any https://js.stripe.com/** script. Defines window.Stripe(publishableKey) with
 * elements().create('card').mount(el), which renders a labelled input inside `el`, and
 * confirmCardPayment(clientSecret, data), which defers to the test process. It sets
 * Stripe.version to the release in its own URL, as @stripe/stripe-js checks it.
 */
const FAKE_STRIPE_JS = `(() => {
  const src = document.currentScript ? document.currentScript.src : '';
  const release = (new URL(src || 'https://js.stripe.com/v3/').pathname.split('/')[1]) || 'v3';
  const elementsMade = [];
  function Stripe(publishableKey) {
    if (!(this instanceof Stripe)) return new Stripe(publishableKey);
    if (typeof publishableKey !== 'string' || !publishableKey) throw new Error('fake Stripe.js: no publishable key');
    window.__fakeStripe.instances.push(publishableKey);
    this.elements = function elements() {
      return {
        create(type, options) {
          const state = { type, options: options || null, input: null, mounted: false };
          const handlers = {};
          const element = {
            mount(target) {
              const el = typeof target === 'string' ? document.querySelector(target) : target;
              if (!el) throw new Error('fake Stripe.js: nothing to mount the ' + type + ' element in');
              const label = document.createElement('label');
              label.htmlFor = 'fake-stripe-' + type;
              label.textContent = 'Card number (fake Stripe.js)';
              const input = document.createElement('input');
              input.id = 'fake-stripe-' + type;
              input.name = 'fake-stripe-' + type;
              input.autocomplete = 'cc-number';
              input.inputMode = 'numeric';
              input.addEventListener('input', () => (handlers.change || []).forEach((h) => h({ elementType: type, empty: !input.value, complete: input.value.replace(/\\D/g, '').length >= 16, error: undefined })));
              el.append(label, input);
              state.input = input;
              state.mounted = true;
              (handlers.ready || []).forEach((h) => h({ elementType: type }));
            },
            on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element; },
            off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return element; },
            once(event, handler) { return element.on(event, handler); },
            update() {},
            focus() { if (state.input) state.input.focus(); },
            blur() { if (state.input) state.input.blur(); },
            clear() { if (state.input) state.input.value = ''; },
            unmount() { if (state.input) state.input.parentElement && state.input.parentElement.replaceChildren(); state.mounted = false; },
            destroy() { element.unmount(); },
          };
          elementsMade.push({ element, state });
          window.__fakeStripe.elements.push({ type, options: options || null });
          return element;
        },
        getElement(type) { const made = elementsMade.find((m) => m.state.type === type); return made ? made.element : null; },
      };
    };
    this.confirmCardPayment = async function confirmCardPayment(clientSecret, data, options) {
      const paymentMethod = Object.assign({}, (data && data.payment_method) || {});
      const made = elementsMade.find((m) => m.element === paymentMethod.card);
      delete paymentMethod.card;
      const request = {
        publishableKey,
        clientSecret,
        card: made ? { type: made.state.type, options: made.state.options, number: made.state.input ? made.state.input.value : '' } : null,
        paymentMethod: JSON.parse(JSON.stringify(paymentMethod)),
        options: options === undefined ? null : JSON.parse(JSON.stringify(options)),
      };
      window.__fakeStripe.confirmations.push(request);
      if (!made || !made.state.mounted) {
        return { error: { type: 'validation_error', message: 'fake Stripe.js: payment_method.card is not a mounted card element' } };
      }
      return window.${BINDING}(request);
    };
  }
  Stripe.version = release === 'v3' ? 3 : release;
  window.__fakeStripe = { instances: [], elements: [], confirmations: [] };
  window.Stripe = Stripe;
})();
`;

interface FakeStripe {
  /** Every request the browser made to js.stripe.com, with the page it was on. */
  scriptRequests: Array<{ url: string; from: string }>;
  confirmations: Confirmation[];
  answers: ConfirmAnswer[];
}

/**
 * Routes js.stripe.com to the fake and answers its confirmCardPayment() calls. Any other
 * *.stripe.com / *.stripe.network request is refused and recorded (the fake makes none).
 */
async function installFakeStripe(context: BrowserContext): Promise<FakeStripe> {
  const fake: FakeStripe = { scriptRequests: [], confirmations: [], answers: [] };
  context.on('request', (request) => {
    if (new URL(request.url()).hostname === 'js.stripe.com') {
      fake.scriptRequests.push({ url: request.url(), from: request.frame().url() });
    }
  });
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript; charset=utf-8', body: FAKE_STRIPE_JS }),
  );
  await context.route(/^https:\/\/([a-z0-9-]+\.)*(stripe\.com|stripe\.network)\//, (route) => {
    if (new URL(route.request().url()).hostname === 'js.stripe.com') return route.fallback();
    return route.abort('blockedbyclient');
  });
  await context.exposeBinding(BINDING, (_source, request: Confirmation) => {
    fake.confirmations.push(request);
    const answer = confirmWithStandIn(request);
    fake.answers.push(answer);
    return answer;
  });
  return fake;
}

/** What Stripe would do with a confirmation: the decline card is declined, any other succeeds. */
function confirmWithStandIn(request: Confirmation): ConfirmAnswer {
  const id = request.clientSecret.split('_secret_')[0]!;
  const intent = standIn.intents.get(id);
  if (!intent || intent.client_secret !== request.clientSecret) {
    return {
      error: { type: 'invalid_request_error', message: `fake Stripe.js: no payment intent with client secret ${request.clientSecret}` },
    };
  }
  if (request.card?.number.replace(/\D/g, '') === CARDS.declined.replace(/\D/g, '')) {
    return { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: DECLINE_MESSAGE } };
  }
  standIn.setStatus(id, 'succeeded');
  return { paymentIntent: { id, object: 'payment_intent', status: 'succeeded', amount: intent.amount, currency: intent.currency } };
}

// ---------------------------------------------------------------------------------------------
// Helpers

const payButton = (page: Page) => page.locator('button.pay-button');
const totalCell = (page: Page, key: keyof typeof PORTLAND_TOTALS) => page.locator(`[data-total="${key}"]`);
const cardInput = (page: Page) => page.locator('.stripe-card').getByLabel('Card number (fake Stripe.js)', { exact: true });

/** The directive's sources in a Content-Security-Policy header. */
function cspSources(csp: string, directive: string): string[] {
  const found = csp
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === directive);
  return found ? found.slice(1) : [];
}

async function cspOf(response: Response | null): Promise<string> {
  expect(response, 'a navigation response').toBeTruthy();
  return (await response!.allHeaders())['content-security-policy'] ?? '';
}

/**
 * Home, catalogue and book page with nothing from js.stripe.com and no Stripe in their CSP;
 * then the book goes into the cart.
 */
async function browseAndAddBook(page: Page, fake: FakeStripe): Promise<void> {
  for (const pathname of ['/', '/books', `/books/${book.id}`]) {
    const res = await page.goto(`${shop.baseUrl}${pathname}`);
    expect(res?.status(), `GET ${pathname}`).toBe(200);
    await page.waitForLoadState('networkidle');
    expect(await cspOf(res), `CSP of ${pathname}`).not.toContain('stripe');
    expect(await page.evaluate(() => typeof (window as { Stripe?: unknown }).Stripe), `window.Stripe on ${pathname}`).toBe('undefined');
  }
  expect(fake.scriptRequests, 'requests to js.stripe.com from the home and catalogue pages').toEqual([]);

  const form = page.locator('form[data-add-to-cart]');
  await form.getByLabel('Quantity').selectOption('1');
  await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expectToast(page, 'Added to Cart!', `${book.title} has been added to your cart.`);
  expect(fake.scriptRequests, 'requests to js.stripe.com after adding to the cart').toEqual([]);
}

/**
 * Cart drawer -> 'Proceed to Checkout' -> /simple-checkout, whose CSP allows Stripe.js; the
 * card island loads the fake Stripe.js and mounts its card element. Returns the page's CSP.
 */
async function proceedToStripeCheckout(page: Page, fake: FakeStripe): Promise<string> {
  await page.locator('[data-cart-button]').click();
  const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
  await drawer.waitFor();
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) =>
        r.request().isNavigationRequest() && r.request().frame() === page.mainFrame() && new URL(r.url()).pathname === '/simple-checkout',
    ),
    page.waitForURL((url) => url.pathname === '/simple-checkout'),
    drawer.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click(),
  ]);
  expect(response.status()).toBe(200);
  const csp = await cspOf(response);

  expect(await page.locator('h1').innerText()).toBe('Complete Your Order');
  await cardInput(page).waitFor();
  expect(await page.locator('#card-number').count(), 'the sandbox card fields in Stripe mode').toBe(0);
  expect(fake.scriptRequests.map((r) => new URL(r.url).origin)).toEqual(['https://js.stripe.com']);
  expect(fake.scriptRequests[0]!.url).toMatch(/^https:\/\/js\.stripe\.com\/(v3|[a-z]+)\/stripe\.js(\?.*)?$/);
  expect(
    await page.evaluate(
      () => (window as unknown as { __fakeStripe: { instances: string[]; elements: Array<{ type: string }> } }).__fakeStripe,
    ),
  ).toMatchObject({
    instances: [PUBLISHABLE_KEY],
    elements: [{ type: 'card' }],
  });
  return csp;
}

async function fillPortland(page: Page): Promise<void> {
  await page.locator('#co-address').fill(PORTLAND.address);
  await page.locator('#co-city').fill(PORTLAND.city);
  await page.locator('#co-zip').fill(PORTLAND.zipCode);
}

async function expectPortlandTotals(page: Page): Promise<void> {
  await eventually(() => totalCell(page, 'total').innerText()).toBe(PORTLAND_TOTALS.total);
  for (const key of ['subtotal', 'shipping', 'handling', 'tax'] as const) {
    expect(await totalCell(page, key).innerText(), `Order Summary ${key}`).toBe(PORTLAND_TOTALS[key]);
  }
  await eventually(() => payButton(page).innerText()).toBe(`Pay ${PORTLAND_TOTALS.total}`);
}

async function payWith(page: Page, number: string): Promise<void> {
  await cardInput(page).fill(number);
  const pay = page.getByRole('button', { name: `Pay ${PORTLAND_TOTALS.total}`, exact: true });
  expect(await pay.isEnabled()).toBe(true);
  await pay.click();
}

/** The stand-in's requests from index `from` on that created a payment intent. */
const intentCreations = (from: number): RecordedRequest[] =>
  standIn.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

// ---------------------------------------------------------------------------------------------

test.describe('checkout on Stripe (stand-ins for Stripe.js and the Stripe API), on a phone', () => {
  test('a guest pays with Stripe.js: billing details, the intent, the CSP, the order confirmation', async () => {
    const customer = newCustomer('Iris');
    const requestsBefore = standIn.requests.length;
    await withPage(browser, phone, async (page, { context }) => {
      const fake = await installFakeStripe(context);
      await browseAndAddBook(page, fake);

      const csp = await proceedToStripeCheckout(page, fake);
      expect(cspSources(csp, 'script-src'), `script-src of ${csp}`).toContain('https://js.stripe.com');

      await fillGuestDetails(page, customer);
      await fillPortland(page);
      await expectPortlandTotals(page);
      // The card element's container is the shop's own markup around Stripe's field.
      await expectNoAxeViolations(page);
      await payWith(page, CARDS.succeeds);

      await expectToast(page, 'Payment Successful!', 'Thank you! Taking you to your order confirmation...');
      await page.waitForURL((url) => url.pathname === '/order-confirmation');

      // What Stripe.js was asked to do.
      expect(fake.confirmations).toHaveLength(1);
      const [confirmation] = fake.confirmations;
      expect(confirmation!.publishableKey).toBe(PUBLISHABLE_KEY);
      expect(confirmation!.card).toMatchObject({ type: 'card', number: CARDS.succeeds });
      expect(confirmation!.paymentMethod.billing_details).toEqual({
        name: `${customer.firstName} ${customer.lastName}`,
        email: customer.email,
        address: { line1: PORTLAND.address, city: PORTLAND.city, postal_code: PORTLAND.zipCode, country: 'US' },
      });
      const intentId = confirmation!.clientSecret.split('_secret_')[0]!;
      expect(fake.answers).toEqual([{ paymentIntent: expect.objectContaining({ id: intentId, status: 'succeeded' }) }]);

      // What the shop asked the Stripe API for.
      const creations = intentCreations(requestsBefore);
      expect(creations, 'POST /v1/payment_intents').toHaveLength(1);
      const [creation] = creations;
      expect(creation!.status).toBe(200);
      expect(creation!.authorization).toBe(`Bearer ${standIn.secretKey}`);
      expect(creation!.form.amount).toBe(String(PORTLAND_TOTAL_CENTS));
      expect(creation!.form.currency).toBe('usd');
      expect(creation!.idempotencyKey, 'Idempotency-Key of POST /v1/payment_intents').toBeTruthy();
      const intent = standIn.intents.get(intentId);
      expect(intent, `stand-in intent ${intentId}`).toBeTruthy();
      expect(intent!.amount).toBe(PORTLAND_TOTAL_CENTS);
      expect(intent!.status).toBe('succeeded');
      expect(intent!.customer).toMatch(/^cus_/);

      // The order confirmation.
      const params = new URL(page.url()).searchParams;
      const orderId = Number(params.get('orderId'));
      expect(Number.isInteger(orderId) && orderId > 0, `orderId in ${page.url()}`).toBe(true);
      expect(params.get('paymentIntentId')).toBe(intentId);
      expect(await page.locator('h1').innerText()).toBe('Order Confirmed!');
      const fact = (term: string) => page.locator(`dl.order-facts dt:text-is("${term}") + dd`);
      expect(await fact('Order number').innerText()).toBe(`#${orderId}`);
      expect(await fact('Status').innerText()).toBe('Paid');
      // The payment's reference is a line for support, not one of the order's facts.
      expect(await page.getByText('Payment reference (for our support team):').innerText()).toBe(
        `Payment reference (for our support team): ${intentId}`,
      );
      expect(await fact('Ships to').innerText()).toBe(`${PORTLAND.address}, ${PORTLAND.city}, ${PORTLAND.state} ${PORTLAND.zipCode}`);
      expect(await page.locator('.summary-lines li').allInnerTexts()).toEqual([expect.stringContaining(book.title)]);
      expect(await page.locator('dl.summary-totals dt:text-is("Total") + dd').innerText()).toBe(PORTLAND_TOTALS.total);
      expect(await orderIds(page, shop.baseUrl)).toEqual([orderId]);
    });
  });

  test('a guest whose card Stripe declines sees Payment Failed, stays on the page and gets no order', async () => {
    const customer = newCustomer('Juno');
    const requestsBefore = standIn.requests.length;
    await withPage(browser, phone, async (page, { context }) => {
      const fake = await installFakeStripe(context);
      await browseAndAddBook(page, fake);
      await proceedToStripeCheckout(page, fake);
      await fillGuestDetails(page, customer);
      await fillPortland(page);
      await expectPortlandTotals(page);
      await payWith(page, CARDS.declined);

      await eventually(() => paymentProblem(page)).toBe(`Payment Failed: ${DECLINE_MESSAGE}`);
      expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
      await eventually(() => payButton(page).isEnabled()).toBe(true);
      expect(fake.confirmations).toHaveLength(1);
      expect(fake.confirmations[0]!.card).toMatchObject({ type: 'card', number: CARDS.declined });
      expect(fake.answers).toEqual([{ error: expect.objectContaining({ code: 'card_declined', message: DECLINE_MESSAGE }) }]);

      // The successful path navigates one second after its toast: give the page every chance to leave.
      await page.waitForTimeout(2_000);
      expect(pathOf(page)).toBe('/simple-checkout');
      expect(await payButton(page).innerText()).toBe(`Pay ${PORTLAND_TOTALS.total}`);
      expect(await page.locator('#co-email').inputValue()).toBe(customer.email);

      const intentId = fake.confirmations[0]!.clientSecret.split('_secret_')[0]!;
      expect(standIn.intents.get(intentId)?.status).toBe('requires_payment_method');
      expect(intentCreations(requestsBefore).map((r) => r.form.amount)).toEqual([String(PORTLAND_TOTAL_CENTS)]);
      // The account was created before the card was tried; no order came of the payment.
      expect(await orderIds(page, shop.baseUrl)).toEqual([]);
    });
  });
});
