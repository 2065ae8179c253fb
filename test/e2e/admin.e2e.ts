// The operator's side, in Chromium:
//  1. `npm run admin:create` on the server, sign in with the one-time password, choose a password,
//     enrol an authenticator, keep the recovery codes, read the status page (desktop).
//  2. Sign in again on a phone with a code.
//  3. On a phone: a parent's paid order, a gift, is found in the orders list (tagged 'Gift'
//     beside its number) and shipped with a tracking number; the parent's dashboard and
//     confirmation page show it.
//  4. On a desktop, signed in with a recovery code: every admin page, and the parent's dashboard.
// axe, a screenshot and no sideways scrolling on every page.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import supertest from 'supertest';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { placePaidOrder } from '../helpers/orders.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { desktop, expectNoAxeViolations, phone, ROOT, screenshot, submitAndFollow, withPage, type Shop, changeHeaders } from './harness.ts';
import { pathOf } from './steps.ts';

test.use({ shopFor: 'admin' });

const EMAIL = 'owner@littlelantern.example';
const PASSWORD = 'a-lantern-for-olive';

let shop: Shop;
let browser: Browser;
let dataDir: string;
test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  // admin:create works on the shop's own database.
  dataDir = shop.env.DATA_DIR!;
  browser = launched;
  order = await placeOrder();
  await sendContactMessage();
});
/** `npm run admin:create` against the running shop's database; returns the printed one-time password. */
async function adminCreate(): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
    DOTENV_CONFIG_QUIET: 'true',
  };
  delete env.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { stdout } = await promisify(execFile)(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['src/cli/admin-create.ts', '--email', EMAIL, '--first-name', 'Olive'],
    { cwd: ROOT, env },
  );
  return /One-time password: (\S+)/.exec(stdout)![1]!;
}

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  // Nothing wider than the screen: at 390 px the page must not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function signIn(page: Page, password: string, landing: string): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(EMAIL);
  await page.locator('#signin-password').fill(password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing });
}

let secret = '';
let recoveryCodes: string[] = [];
let order: { id: number; parent: { email: string; password: string } };
const TRACKING = '9400 1000 0000 0000 0000 42';
const GIFT_NOTE = 'Happy birthday, Mia! Love from Gran';

/** A parent pays for two books through the JSON API, as the card island does: a gift. */
async function placeOrder() {
  const { buyer, orderId } = await placePaidOrder({ browser: () => supertest.agent(shop.baseUrl) }, { gift: { giftNote: GIFT_NOTE } });
  return { id: orderId, parent: buyer.parent };
}

async function sendContactMessage(): Promise<void> {
  const agent = supertest.agent(shop.baseUrl);
  const { csrfToken } = (await agent.get('/api/session').expect(200)).body as { csrfToken: string | null };
  await agent
    .post('/api/contact')
    .set(changeHeaders(csrfToken))
    .send({
      firstName: 'Noor',
      lastName: 'Haddad',
      email: 'noor@example.com',
      currentMember: 'yes',
      subject: 'URGENT: the wrong book arrived',
      description: 'We ordered the bear book and received the kite book. Could you help?',
    })
    .expect((res) => expect(res.status).toBeLessThan(300));
}

/** An operator's sign-in with a recovery code (each works once; the authenticator's codes are used up by the earlier journeys). */
async function signInWithRecoveryCode(page: Page): Promise<void> {
  await signIn(page, PASSWORD, '/admin/two-factor');
  await page.getByLabel('Code', { exact: true }).fill(recoveryCodes.shift()!);
  await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
}

/** In the orders list, a gift shows as a small tag on its number's line, the note its hidden text. */
async function expectGiftTag(page: Page): Promise<void> {
  const number = page.getByRole('link', { name: `#${order.id}`, exact: true });
  const tag = page.locator('tr', { has: number }).locator('.gift-badge');
  expect(await tag.textContent()).toBe(`Gift: ${GIFT_NOTE}`);
  const [numberBox, tagBox] = [(await number.boundingBox())!, (await tag.boundingBox())!];
  expect(tagBox.width).toBeLessThan(60);
  expect(tagBox.x).toBeGreaterThan(numberBox.x + numberBox.width);
  expect(tagBox.y).toBeGreaterThanOrEqual(numberBox.y);
  expect(tagBox.y + tagBox.height).toBeLessThanOrEqual(numberBox.y + numberBox.height);
}

/** The parent signs in and opens the Orders tab of the dashboard. */
async function parentSeesTracking(page: Page, name: string): Promise<void> {
  await page.goto(`${shop.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).first().fill(order.parent.email);
  await page.locator('#signin-password').fill(order.parent.password);
  await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), { post: '/login', landing: '/dashboard' });
  await page.goto(`${shop.baseUrl}/dashboard?tab=orders`);
  const orders = page.locator('#panel-orders');
  await expect(orders.innerText()).resolves.toContain(TRACKING);
  await expect(orders.innerText()).resolves.toContain('Shipped');
  await check(page, `dashboard-shipped-${name}`);
  await page.goto(`${shop.baseUrl}/order-confirmation?orderId=${order.id}`);
  await expect(page.locator('main').innerText()).resolves.toContain(TRACKING);
}

test.describe('the shop admin', () => {
  test('from admin:create to the status page, on a desktop', async () => {
    const oneTime = await adminCreate();
    await withPage(browser, desktop, async (page) => {
      await signIn(page, oneTime, '/change-password');
      await check(page, 'admin-change-password-desktop');
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm new password', { exact: true }).fill(PASSWORD);
      await submitAndFollow(page, page.getByRole('button', { name: 'Save New Password' }), {
        post: '/change-password',
        landing: '/admin/two-factor',
      });

      expect(await page.locator('.qr svg').count()).toBe(1);
      await check(page, 'admin-enrol-desktop');
      await page.getByText("Can't scan? Enter the key by hand").click();
      secret = (await page.locator('code.secret').innerText()).replace(/\s/g, '');
      await page.getByLabel('Code from the app').fill(currentCode(secret));
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()]);
      await page.waitForSelector('ol.recovery-codes');
      expect(await page.locator('ol.recovery-codes li').count()).toBe(10);
      recoveryCodes = await page.locator('ol.recovery-codes li').allInnerTexts();
      await check(page, 'admin-recovery-codes-desktop');

      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin'),
        page.getByRole('button', { name: /go to the admin/ }).click(),
      ]);
      expect(await page.locator('h1').innerText()).toBe('Shop status');
      for (const card of ['Payment system', 'Database', 'Email system'])
        await expect(page.getByRole('heading', { name: card, level: 2 }).count()).resolves.toBe(1);
      expect(await page.locator('main').innerText()).toContain('4242 4242 4242 4242');
      await check(page, 'admin-status-desktop');
    });
  });

  test('signs in again on a phone with a code and reads the status page', async () => {
    expect(secret).not.toBe('');
    await withPage(browser, phone, async (page) => {
      await signIn(page, PASSWORD, '/admin/two-factor');
      await check(page, 'admin-two-factor-phone');
      // The enrolment used this step's code; the authenticator's next one is accepted.
      await page.getByLabel('Code', { exact: true }).fill(currentCode(secret, Date.now() + 30_000));
      await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
      expect(pathOf(page)).toBe('/admin');
      await check(page, 'admin-status-phone');
      const navLink = page.getByRole('navigation', { name: 'Shop admin' }).getByRole('link', { name: 'Status' });
      expect((await navLink.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    });
  });

  test('ships a paid order on a phone, and the parent sees the tracking number', async () => {
    await withPage(browser, phone, async (page) => {
      await signInWithRecoveryCode(page);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/admin/orders'),
        page.getByRole('navigation', { name: 'Shop admin' }).getByRole('link', { name: 'Orders', exact: true }).click(),
      ]);
      await expectGiftTag(page);
      await check(page, 'admin-orders-phone');
      await Promise.all([
        page.waitForURL((url) => url.pathname === `/admin/orders/${order.id}`),
        page.getByRole('link', { name: `#${order.id}`, exact: true }).click(),
      ]);
      await check(page, 'admin-order-phone');

      await page.getByLabel('Carrier').selectOption('USPS');
      await page.getByLabel('Tracking number').fill(TRACKING);
      await submitAndFollow(page, page.getByRole('button', { name: 'Mark shipped and email the customer' }), {
        post: `/admin/orders/${order.id}/ship`,
        landing: `/admin/orders/${order.id}`,
      });
      const main = await page.locator('main').innerText();
      expect(main).toContain(TRACKING);
      expect(main).toContain('Shipped');
      await check(page, 'admin-order-shipped-phone');
    });
    await withPage(browser, phone, (page) => parentSeesTracking(page, 'phone'));
  });

  test('shows every admin page on a desktop, and the parent sees the tracking number there too', async () => {
    await withPage(browser, desktop, async (page) => {
      await signInWithRecoveryCode(page);
      for (const [path, name] of [
        ['/admin/orders', 'admin-orders-desktop'],
        [`/admin/orders/${order.id}`, 'admin-order-desktop'],
        ['/admin/to-pack', 'admin-to-pack-desktop'],
        [`/admin/orders/${order.id}/packing-slip`, 'admin-packing-slip-desktop'],
        ['/admin/inbox', 'admin-inbox-desktop'],
      ] as const) {
        expect((await page.goto(`${shop.baseUrl}${path}`))?.status(), path).toBe(200);
        if (path === '/admin/orders') await expectGiftTag(page);
        await check(page, name);
      }
      expect(await page.locator('main').innerText()).toContain('URGENT: the wrong book arrived');
    });
    await withPage(browser, phone, async (page) => {
      await signInWithRecoveryCode(page);
      for (const [path, name] of [
        ['/admin/to-pack', 'admin-to-pack-phone'],
        [`/admin/orders/${order.id}/packing-slip`, 'admin-packing-slip-phone'],
        ['/admin/inbox', 'admin-inbox-phone'],
      ] as const) {
        expect((await page.goto(`${shop.baseUrl}${path}`))?.status(), path).toBe(200);
        await check(page, name);
      }
    });
    await withPage(browser, desktop, (page) => parentSeesTracking(page, 'desktop'));
  });
});
