// Pre-orders in Chromium, at 390x844 and on a desktop (sandbox payments):
//  1. A guest finds a forthcoming title under "Coming soon", sees Coming Soon, its date and a
//     Pre-order button, pre-orders two copies, is told before paying that everything ships
//     together on that date, and pays; the confirmation and the dashboard tell the pre-order's
//     story; the parent cancels it from the dashboard and is refunded in full, by email too.
//  2. The operator moves the title's publication date: the waiting parent gets an email with the
//     new date and a one-click link, which opens a page whose one button cancels and refunds.
// axe and a screenshot at each step.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { longDate } from '../../src/lib/dates.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, submitAndFollow, withPage, type Shop } from './harness.ts';
import { enterCard, eventually, fillGuestDetails, newCustomer, pathOf, PORTLAND } from './steps.ts';

test.use({ shopFor: 'preorders' });

interface Title {
  id: number;
  title: string;
  publishedOn: string;
  takesPreorders: boolean;
  preorderCopiesLeft: number | null;
}

let shop: Shop;
let browser: Browser;
let db: Db;
let operator: Operator;
/** The seeded forthcoming title with no pre-order limit. */
let title: Title;
/** Each sign-in uses the authenticator's code one step later: a code works once. */
let step = 0;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  operator = await createOperator(db, { email: 'preorders@littlelantern.example' });
  title = await forthcomingTitle();
});
test.afterAll(async () => {
  await db?.destroy();
});

async function forthcomingTitle(): Promise<Title> {
  const res = await fetch(`${shop.baseUrl}/api/books`);
  const titles = ((await res.json()) as Title[]).filter((b) => b.takesPreorders && b.preorderCopiesLeft === null);
  expect(titles.length, 'a seeded forthcoming title taking pre-orders without a limit').toBeGreaterThan(0);
  return titles[0]!;
}

async function check(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** From the catalogue's Coming soon choice to a paid pre-order of two copies, as a new guest. */
async function preorderAndPay(page: Page, device: string, firstName: string): Promise<{ orderId: number; email: string }> {
  const customer = newCustomer(firstName);
  const outOn = longDate(title.publishedOn);
  await page.goto(`${shop.baseUrl}/books`);
  await page.getByLabel('Show').selectOption('coming-soon');
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get('show') === 'coming-soon'),
    page.getByRole('button', { name: 'Show books' }).click(),
  ]);
  const card = page.locator('article.book-card', { hasText: title.title });
  await expect(card.getByRole('button', { name: `Pre-order: ${title.title}` })).toBeVisible();
  await check(page, `${device}-preorders-coming-soon`);

  await card.locator('a.book-card-link').click();
  await page.waitForURL((url) => url.pathname === `/books/${title.id}`);
  expect(await page.locator('.price-line .badge').innerText()).toBe('Coming Soon');
  expect(await page.locator('.price-line .out-on').innerText()).toBe(`Out ${outOn}`);
  const form = page.locator('form[data-add-to-cart]');
  expect(await form.getByLabel('Quantity').locator('option').allInnerTexts()).toEqual(['1', '2', '3', '4', '5']);
  await check(page, `${device}-preorders-book-page`);
  await form.getByLabel('Quantity').selectOption('2');
  await form.getByRole('button', { name: 'Pre-order', exact: true }).click();
  await page.locator('[data-toasts] [data-toast]').waitFor();

  await page.locator('[data-cart-button]').click();
  const drawer = page.getByRole('dialog', { name: 'Shopping Cart' });
  await expect(drawer.getByText(`Pre-order · out ${outOn}`)).toBeVisible();
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/simple-checkout'),
    drawer.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click(),
  ]);
  await page.locator('#card-number').waitFor();
  await expect(page.locator('.ships-together').first()).toContainText(`ships together once the last book is out, on ${outOn}`);

  await fillGuestDetails(page, customer);
  await page.locator('#co-address').fill(PORTLAND.address);
  await page.locator('#co-city').fill(PORTLAND.city);
  await page.locator('#co-zip').fill(PORTLAND.zipCode);
  await eventually(() => page.locator('[data-total="total"]').innerText()).toMatch(/^\$\d+\.\d\d$/);
  await enterCard(page, '4242 4242 4242 4242');
  await check(page, `${device}-preorders-checkout`);
  await page.locator('button.pay-button').click();
  await page.waitForURL((url) => url.pathname === '/order-confirmation');
  expect(await page.locator('h1').innerText()).toBe('Pre-order Confirmed!');
  await expect(page.getByText(`Pre-ordered: we will send it as soon as it is out on ${outOn}.`)).toBeVisible();
  await check(page, `${device}-preorders-confirmation`);
  return { orderId: Number(new URL(page.url()).searchParams.get('orderId')), email: customer.email };
}

async function signInAsOperator(page: Page): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(operator.email);
  await page.locator('#signin-password').fill(operator.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/admin/two-factor' });
  await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!, Date.now() + step++ * 30_000));
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

/** The day `days` after `day` ("2027-01-15"). */
function daysAfter(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

for (const [device, options] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test(`${device}: a parent pre-orders a forthcoming book, pays, sees it on the dashboard and cancels it for a full refund`, async ({
    mail,
  }) => {
    await withPage(browser, options, async (page) => {
      const { orderId, email } = await preorderAndPay(page, device, device === 'phone' ? 'Ines' : 'Jonah');

      await page.goto(`${shop.baseUrl}/dashboard?tab=orders`);
      const order = page.locator('.order', { hasText: `#${orderId}` });
      expect(await order.locator('.order-story-heading').innerText()).toBe('Pre-order Confirmed!');
      await expect(order.getByText(`Pre-order · out ${longDate(title.publishedOn)}`)).toBeVisible();
      await check(page, `${device}-preorders-dashboard`);

      await order.getByText('Cancel pre-order').click();
      const cancel = order.getByRole('button', { name: new RegExp(`^Yes, cancel pre-order #${orderId} and refund \\$`) });
      await check(page, `${device}-preorders-cancel-asked`);
      await Promise.all([page.waitForURL((url) => url.pathname === '/dashboard'), cancel.click()]);
      const canceled = page.locator('.order', { hasText: `#${orderId}` });
      expect(await canceled.locator('.order-story-heading').innerText()).toBe('Order Canceled');
      await expect(canceled.getByText(/was canceled and \$\d+\.\d\d was refunded to your card\./)).toBeVisible();
      expect(await canceled.getByText('Cancel pre-order').count()).toBe(0);
      await check(page, `${device}-preorders-canceled`);

      const message = await mail.latest(email, `Your order #${orderId} was canceled and refunded`);
      expect(message.text).toMatch(/refunded/);
    });
  });

  test(`${device}: the operator moves the publication date; the waiting parent is told and cancels from the email's link`, async ({
    mail,
  }) => {
    await withPage(browser, options, async (parent) => {
      const { orderId, email } = await preorderAndPay(parent, `${device}-moved`, device === 'phone' ? 'Kit' : 'Lena');
      const later = daysAfter(title.publishedOn, 21);

      await withPage(browser, options, async (page) => {
        await signInAsOperator(page);
        await page.goto(`${shop.baseUrl}/admin/books/${title.id}/edit`);
        await page.getByLabel('Publication date', { exact: true }).fill(later);
        await check(page, `${device}-preorders-operator-moves-date`);
        await Promise.all([
          page.waitForURL((url) => url.pathname === `/admin/books/${title.id}/edit`),
          page.getByRole('button', { name: 'Save book' }).click(),
        ]);
        expect(await page.getByLabel('Publication date', { exact: true }).inputValue()).toBe(later);

        // The title's pre-orders as the operator sizes the print run: the parent's copies are counted.
        await page.goto(`${shop.baseUrl}/admin/preorders`);
        await expect(page.getByRole('row', { name: new RegExp(title.title) })).toBeVisible();
        await check(page, `${device}-preorders-operator-view`);
      });
      title = { ...title, publishedOn: later };

      const message = await mail.latest(email, `${title.title} has a new date: about your pre-order #${orderId}`);
      expect(message.text).toContain(longDate(later));
      // Read from the decoded text: the raw message is quoted-printable, where "=" is written "=3D".
      const link = /\/preorders\/cancel\?token=[^\s"<>]+/.exec(message.text)?.[0];
      expect(link, 'the one-click cancel link in the email').toBeDefined();

      await parent.goto(`${shop.baseUrl}${link!}`);
      expect(pathOf(parent)).toBe('/preorders/cancel');
      await check(parent, `${device}-preorders-cancel-link`);
      await Promise.all([
        parent.waitForURL((url) => url.pathname === '/preorders/cancel'),
        parent.getByRole('button', { name: 'Cancel and refund', exact: true }).click(),
      ]);
      expect(await parent.locator('h1').innerText()).toBe('Order Canceled');
      await check(parent, `${device}-preorders-canceled-by-link`);
    });
  });
}
