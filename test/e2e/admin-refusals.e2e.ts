// The operator's refusals and states, in Chromium at 390x844 and on a desktop:
//  1. The order page: shipping without a tracking number, refunding too much and cancelling
//     without ticking the box each come back in their own form, the summary focused and on
//     screen, the message beside the field, what was typed kept, no toast; each action done
//     then gives a toast naming the order. A partly refunded paid order reads "Partly refunded"
//     in the orders list; a canceled order's payment reads as refunded.
//  2. Discount codes: every problem of the form in one submit; a code saved with a past last
//     day is confirmed and listed as expired, not as ready to use; the list names the other
//     states too: Off, Not started, and Used up (uses held by payments in progress count).
//  3. The /admin home: the pre-launch checklist first while the shop takes test payments; an
//     export asked for reversed dates comes back to its form, swapped round, with a notice; a
//     bad ?days= or orders filter falls back with a notice; the orders CSV says which amounts
//     repeat on each book row.
// axe, a screenshot (admin-refusals-*.png) and no sideways scrolling on each state.
import { readFile } from 'node:fs/promises';
import supertest from 'supertest';
import { expect, type Browser, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { utcToday } from '../../src/features/discounts/discount.rules.ts';
import { createOperator } from '../helpers/operator.ts';
import { placePaidOrder } from '../helpers/orders.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, submitAndFollow, submitForm, withPage, type Shop } from './harness.ts';

test.use({ shopFor: 'admin-refusals' });

let shop: Shop;
let browser: Browser;
let db: Db;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
});
test.afterAll(async () => {
  await db?.destroy();
});

const SIZES = [
  ['phone', phone],
  ['desktop', desktop],
] as const satisfies ReadonlyArray<readonly [string, BrowserContextOptions]>;

/** A fresh operator for each journey: each has its own authenticator, so no code is used twice. */
async function signIn(page: Page): Promise<void> {
  const operator = await createOperator(db);
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
  await dismissToasts(page);
}

async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.locator('[data-toasts] [data-toast]');
  for (const close of await toasts.getByRole('link', { name: 'Dismiss notification' }).all()) await close.click().catch(() => {});
  await expect(toasts).toHaveCount(0);
}

/** A parent's paid order, through the JSON API as the card island pays. */
async function paidOrder(): Promise<number> {
  const { orderId } = await placePaidOrder({ browser: () => supertest.agent(shop.baseUrl) });
  return orderId;
}

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, `admin-refusals-${name}`);
  // A toast leaves by itself after five seconds, fading: axe would measure its colours mid-fade.
  await dismissToasts(page);
  await expectNoAxeViolations(page);
  // Against the screen's width: a phone's browser widens its layout to fit content that overflows.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** Chromium logs a document answered with a 4xx (a refused form) as a failed resource: expected here. */
const refusedDocuments = (problem: string) => /status of 4\d\d /.test(problem) && /\/admin\/[^ ]*:0\)$/.test(problem);

/** The refused form's summary: focused, on screen, headed as the form says, one link per problem. */
async function expectSummary(page: Page, form: string, title: string, links: string[]): Promise<Locator> {
  const summary = page.locator(`#${form}-problems`);
  await expect(summary.getByRole('heading').innerText()).resolves.toBe(title);
  expect(await summary.getByRole('link').allInnerTexts()).toEqual(links);
  expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
  const box = (await summary.boundingBox())!;
  const height = page.viewportSize()!.height;
  expect(box.y, 'the summary is on screen').toBeGreaterThanOrEqual(0);
  expect(box.y + Math.min(box.height, 120)).toBeLessThanOrEqual(height);
  // No toast tells a refusal.
  expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
  return summary;
}

/** The message beside a field: tied to it, and just below it on the page. */
async function expectBeside(page: Page, inputId: string, message: string): Promise<void> {
  const input = page.locator(`#${inputId}`);
  expect(await input.getAttribute('aria-invalid')).toBe('true');
  expect((await input.getAttribute('aria-describedby'))!.split(' ')).toContain(`${inputId}-error`);
  const error = page.locator(`#${inputId}-error`);
  await expect(error.innerText()).resolves.toBe(message);
  const [inputBox, errorBox] = [(await input.boundingBox())!, (await error.boundingBox())!];
  expect(errorBox.y).toBeGreaterThanOrEqual(inputBox.y);
  expect(errorBox.y - (inputBox.y + inputBox.height)).toBeLessThan(90);
}

async function toastTitle(page: Page): Promise<string> {
  return page.locator('[data-toasts] [data-toast] .toast-title').innerText();
}

test.describe("the operator's refusals", () => {
  for (const [size, viewport] of SIZES) {
    test(`order page: refused actions come back to their form, done ones name the order (${size})`, async () => {
      const [shipped, canceled] = [await paidOrder(), await paidOrder()];
      await withPage(
        browser,
        viewport,
        async (page) => {
          await signIn(page);
          await page.goto(`${shop.baseUrl}/admin/orders/${shipped}`);

          // Shipping without a tracking number.
          await page.getByLabel('Carrier').selectOption('USPS');
          await page.getByLabel('Estimated delivery').fill('2026-12-04');
          expect((await submitForm(page, page.getByRole('button', { name: 'Mark shipped and email the customer' }))).status()).toBe(400);
          await expectSummary(page, 'ship', 'The order was not marked as shipped', ['Please enter the tracking number.']);
          await expectBeside(page, 'trackingNumber', 'Please enter the tracking number.');
          await expect(page.getByLabel('Carrier').inputValue()).resolves.toBe('USPS');
          await expect(page.getByLabel('Estimated delivery').inputValue()).resolves.toBe('2026-12-04');
          await screenshot(page, `admin-refusals-ship-${size}-viewport`, { fullPage: false });
          await check(page, `ship-${size}`);
          // The summary's link takes the keyboard to the field.
          await page.locator('#ship-problems').getByRole('link').click();
          expect(await page.evaluate(() => document.activeElement?.id)).toBe('trackingNumber');

          await page.getByLabel('Tracking number').fill('9400 1000 0000 0000 0000 42');
          await submitAndFollow(page, page.getByRole('button', { name: 'Mark shipped and email the customer' }), {
            post: `/admin/orders/${shipped}/ship`,
            landing: `/admin/orders/${shipped}`,
          });
          await expect(toastTitle(page)).resolves.toBe(`Order #${shipped} marked as shipped`);

          // Refunding more than was paid.
          const most = /At most \$(\d+\.\d{2})/.exec(await page.locator('#amount-hint').innerText())![1]!;
          const tooMuch = (Number(most) + 1).toFixed(2);
          await page.getByLabel('Amount in dollars').fill(tooMuch);
          await page.getByLabel('Reason (the customer sees it)').fill('A bent cover');
          expect((await submitForm(page, page.getByRole('button', { name: 'Refund', exact: true }))).status()).toBe(409);
          const limit = `You can refund at most $${most} on this order.`;
          await expectSummary(page, 'refund', 'Nothing was refunded', [limit]);
          await expectBeside(page, 'amount', limit);
          await expect(page.getByLabel('Amount in dollars').inputValue()).resolves.toBe(tooMuch);
          await expect(page.getByLabel('Reason (the customer sees it)').inputValue()).resolves.toBe('A bent cover');
          await check(page, `refund-${size}`);

          await page.getByLabel('Amount in dollars').fill('2.50');
          await submitAndFollow(page, page.getByRole('button', { name: 'Refund', exact: true }), {
            post: `/admin/orders/${shipped}/refund`,
            landing: `/admin/orders/${shipped}`,
          });
          await expect(toastTitle(page)).resolves.toBe(`Order #${shipped}: $2.50 refunded`);
          await check(page, `refunded-${size}`);

          // A part of a paid order given back: the list, whose filter says "Paid", says so.
          await page.goto(`${shop.baseUrl}/admin/orders/${canceled}`);
          await page.getByLabel('Amount in dollars').fill('1.00');
          await page.getByLabel('Reason (the customer sees it)').fill('A torn jacket');
          await submitAndFollow(page, page.getByRole('button', { name: 'Refund', exact: true }), {
            post: `/admin/orders/${canceled}/refund`,
            landing: `/admin/orders/${canceled}`,
          });
          await expect(page.locator('.page-hero .status').innerText()).resolves.toBe('Partly refunded');
          await page.goto(`${shop.baseUrl}/admin/orders?status=paid`);
          const row = page.locator('tr', { has: page.getByRole('link', { name: `#${canceled}`, exact: true }) });
          await expect(row.locator('td[data-label="Status"]').innerText()).resolves.toBe('Partly refunded');
          await expect(page.locator('.admin-table').innerText()).resolves.not.toContain('Succeeded');
          await check(page, `list-partly-refunded-${size}`);

          // Cancelling without ticking the box.
          await page.goto(`${shop.baseUrl}/admin/orders/${canceled}`);
          expect((await submitForm(page, page.getByRole('button', { name: 'Cancel order' }))).status()).toBe(400);
          const tick = 'Please tick the box to confirm the cancel and refund.';
          await expectSummary(page, 'cancel', 'The order was not canceled', [tick]);
          await expectBeside(page, 'cancel-confirm', tick);
          await check(page, `cancel-${size}`);

          await page.getByLabel(/Yes, cancel and refund/).check();
          await submitAndFollow(page, page.getByRole('button', { name: 'Cancel order' }), {
            post: `/admin/orders/${canceled}/cancel`,
            landing: `/admin/orders/${canceled}`,
          });
          await expect(toastTitle(page)).resolves.toBe(`Order #${canceled} canceled and refunded`);
          // The provider keeps the payment "succeeded"; the page says what happened to the money.
          const payment = await page.getByRole('region', { name: 'Payment' }).innerText();
          expect(payment).toMatch(/Provider status\s+Refunded\n/);
          expect(payment).not.toContain('Succeeded');
          await expect(page.locator('.page-hero .status').innerText()).resolves.toBe('Canceled');
          await check(page, `canceled-${size}`);
        },
        { allow: refusedDocuments },
      );
    });

    test(`discount codes: every problem at once, and the real state of a saved code (${size})`, async () => {
      const code = `LAST-SPRING-${size.toUpperCase()}`;
      await withPage(
        browser,
        viewport,
        async (page) => {
          await signIn(page);
          await page.goto(`${shop.baseUrl}/admin/discounts/new`);
          await page.getByLabel('Code', { exact: true }).fill('last spring!');
          await page.getByLabel('Percentage off', { exact: true }).fill('150');
          await page.getByLabel('First day').fill('2026-03-10');
          await page.getByLabel('Last day').fill('2026-03-01');
          await page.getByLabel('Maximum uses').fill('lots');
          expect((await submitForm(page, page.getByRole('button', { name: 'Save code' }))).status()).toBe(400);
          await expectSummary(page, 'discount', 'The code was not saved', [
            'A code has only letters, digits and hyphens.',
            'The percentage must be a whole number from 1 to 100.',
            'The end date must not be before the start date.',
            'The maximum number of uses must be a whole number, like 100, or empty for no limit.',
          ]);
          await expectBeside(
            page,
            'discount-maxUses',
            'The maximum number of uses must be a whole number, like 100, or empty for no limit.',
          );
          await check(page, `discount-form-${size}`);

          // Put right in one go: a code whose last day has passed.
          await page.getByLabel('Code', { exact: true }).fill(code);
          await page.getByLabel('Percentage off', { exact: true }).fill('15');
          await page.getByLabel('First day').fill('2026-03-01');
          await page.getByLabel('Last day').fill('2026-03-31');
          await page.getByLabel('Maximum uses').fill('');
          await submitAndFollow(page, page.getByRole('button', { name: 'Save code' }), {
            post: '/admin/discounts',
            landing: '/admin/discounts',
          });
          const toast = await page.locator('[data-toasts] [data-toast]').innerText();
          expect(toast).toContain(`${code} is saved but has expired: its last day was March 31, 2026.`);
          expect(toast).not.toContain('ready to use');
          const row = page.getByRole('row', { name: new RegExp(code) });
          await expect(row.locator('[data-code-status]').innerText()).resolves.toBe('Expired');
          await check(page, `discounts-${size}`);

          // The list names every other state a code can be in today, as the checkout would refuse it:
          // switched off, not started yet, and used up, where uses held by payments still in progress
          // count as used (two used and one held of three). Made in the database: the form is above.
          const states = [
            { code: `SWITCHED-OFF-${size.toUpperCase()}`, status: 'Off', set: { active: false } },
            {
              code: `NEXT-MONTH-${size.toUpperCase()}`,
              status: 'Not started',
              set: { startsOn: utcToday(new Date(Date.now() + 30 * 86_400_000)) },
            },
            { code: `ALL-TAKEN-${size.toUpperCase()}`, status: 'Used up', set: { maxUses: 3, uses: 2, held: 1 } },
          ];
          await db('discount_codes').insert(
            states.map(({ code: name, set }) => ({
              ...{ code: name, kind: 'percentage', percent: 10, active: true, startsOn: null, maxUses: null, uses: 0, held: 0 },
              ...{ createdAt: new Date(), ...set },
            })),
          );
          await page.goto(`${shop.baseUrl}/admin/discounts`);
          // Each row by its code's link (on a phone the rows are drawn as cards, without their header cells' role).
          const rowOf = (name: string) => page.locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
          for (const { code: name, status } of [{ code, status: 'Expired' }, ...states]) {
            await expect(rowOf(name).locator('[data-code-status]').innerText(), name).resolves.toBe(status);
          }
          // Why it is used up, in its Uses cell (which wraps on a phone).
          const uses = await rowOf(states[2]!.code).locator('td[data-label="Uses"]').innerText();
          expect(uses.replace(/\s+/g, ' ')).toBe('2 / 3 (1 in checkouts now)');
          await check(page, `discounts-states-${size}`);
        },
        { allow: refusedDocuments },
      );
    });

    test(`the /admin home: the checklist first in test mode, exports and filters fall back with a notice (${size})`, async () => {
      await withPage(browser, viewport, async (page) => {
        await signIn(page);
        // The checklist leads the page: on a phone, within the first screen.
        const checklist = page.getByRole('heading', { name: 'Before you take real payments' });
        const [checklistBox, paymentBox] = [
          (await checklist.boundingBox())!,
          (await page.getByRole('heading', { name: 'Payment system' }).boundingBox())!,
        ];
        expect(checklistBox.y).toBeLessThan(paymentBox.y);
        expect(checklistBox.y).toBeLessThan(page.viewportSize()!.height);
        await screenshot(page, `admin-refusals-home-${size}-viewport`, { fullPage: false });
        await check(page, `home-${size}`);

        // An orders export with its dates the wrong way round.
        const orders = page.locator('#export-orders');
        const [today, weekAgo] = [utcToday(), utcToday(new Date(Date.now() - 7 * 86_400_000))];
        await orders.getByLabel('From').fill(today);
        await orders.getByLabel('To').fill(weekAgo);
        await Promise.all([
          page.waitForURL((url) => url.pathname === '/admin' && url.searchParams.get('export') === 'orders'),
          orders.getByRole('button', { name: 'Download orders (CSV)' }).click(),
        ]);
        const notice = page.locator('#export-orders-notice');
        await expect(notice.innerText()).resolves.toBe(
          'The start date was after the end date, so the two are swapped round: check them and download again.',
        );
        expect(await notice.evaluate((el) => el === document.activeElement)).toBe(true);
        const noticeBox = (await notice.boundingBox())!;
        expect(noticeBox.y).toBeGreaterThanOrEqual(0);
        expect(noticeBox.y).toBeLessThan(page.viewportSize()!.height);
        await expect(orders.getByLabel('From').inputValue()).resolves.toBe(weekAgo);
        await expect(orders.getByLabel('To').inputValue()).resolves.toBe(today);
        await screenshot(page, `admin-refusals-export-${size}-viewport`, { fullPage: false });
        await check(page, `export-${size}`);

        // Downloaded as it now stands: headings in words, the repeated amounts marked.
        const download = page.waitForEvent('download');
        await orders.getByRole('button', { name: 'Download orders (CSV)' }).click();
        const file = await (await download).path();
        const heading = (await readFile(file, 'utf8')).replace(/^\ufeff/, '').split('\n')[0]!;
        expect(heading.startsWith('Order number,Placed on (UTC),Status,')).toBe(true);
        expect(heading).toContain('Order total (repeats on each book row)');

        // A period the page does not have.
        await page.goto(`${shop.baseUrl}/admin?days=7`);
        await expect(page.getByRole('status').first().innerText()).resolves.toBe(
          'Choose the last 30 or the last 90 days. Showing the last 30 days instead.',
        );
        await expect(page.getByRole('link', { name: 'Last 30 days' }).getAttribute('aria-current')).resolves.toBe('page');

        // An orders filter from an old bookmark.
        expect((await page.goto(`${shop.baseUrl}/admin/orders?status=lost`))?.status()).toBe(200);
        await expect(page.locator('.query-notice').innerText()).resolves.toBe('Choose a status from the list. Showing all orders instead.');
        await check(page, `orders-notice-${size}`);
      });
    });
  }
});

test.describe("the books list's own forms", () => {
  for (const [size, viewport] of SIZES) {
    test(`a refused stock or threshold comes back to the list, told at its field (${size})`, async () => {
      await withPage(browser, viewport, async (page) => {
        await signIn(page);
        await page.goto(`${shop.baseUrl}/admin/books`);
        const field = page.locator('.stock-form input[name="stock"]').first();
        const inputId = (await field.getAttribute('id'))!;
        const shelf = await field.inputValue();
        await field.fill('-3');
        await submitAndFollow(page, page.locator('.stock-form').first().getByRole('button'), {
          post: `/admin/books/${inputId.replace('stock-', '')}/stock`,
          landing: '/admin/books',
        });
        const summary = await expectSummary(page, inputId, 'Stock not changed', ['Stock cannot be negative.']);
        await expectBeside(page, inputId, 'Stock cannot be negative.');
        await expect(page.locator(`#${inputId}`).inputValue()).resolves.toBe('-3');
        await check(page, `stock-${size}`);
        await summary.getByRole('link').click();
        expect(await page.evaluate(() => document.activeElement?.id)).toBe(inputId);
        // Told once: the list again shows the shelf as it is.
        await page.reload();
        await expect(page.locator(`#${inputId}`).inputValue()).resolves.toBe(shelf);
        expect(await page.locator('.form-problems').count()).toBe(0);

        await page.goto(`${shop.baseUrl}/admin/books?stock=low`);
        await page.getByLabel('Low-stock threshold (copies)').fill('lots');
        await submitAndFollow(page, page.getByRole('button', { name: 'Save threshold' }), {
          post: '/admin/settings',
          landing: '/admin/books',
        });
        const message = 'The threshold must be a whole number of copies, like 3.';
        await expectSummary(page, 'threshold', 'The threshold was not changed', [message]);
        await expectBeside(page, 'low-threshold', message);
        await check(page, `threshold-${size}`);
      });
    });
  }
});
