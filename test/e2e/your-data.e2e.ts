// Your data, in Chromium: a parent on a phone finds "Your Data" on their dashboard's Settings
// tab, downloads everything the shop holds about them as one JSON file after their password,
// then deletes their account: a refusal without the box ticked comes back as the form with its
// summary focused; confirmed, they land on a goodbye page, are signed out, cannot sign in
// again, and get one last email. On a desktop the operator finds a parent who wrote in at
// /admin/privacy. Every page passes axe and fits the screen.
import { readFile } from 'node:fs/promises';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { PRIVACY_MESSAGES } from '../../src/features/privacy/privacy.messages.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { createOperator, type Operator } from '../helpers/operator.ts';
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
} from './harness.ts';
import { expectSummary } from './steps.ts';

test.use({ shopFor: 'your-data' });

const PARENT = { email: 'juniper.hollis@example.net', password: 'bedtime-stories-7', firstName: 'Juniper', lastName: 'Hollis' };
const WRITES_IN = { email: 'rowan.ashdown@example.net', password: 'picture-books-9', firstName: 'Rowan', lastName: 'Ashdown' };

let shop: Shop;
let browser: Browser;
let db: Db;
let operator: Operator;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  operator = await createOperator(db, { email: 'privacy@littlelantern.example' });
});
test.afterAll(async () => {
  await db?.destroy();
});

async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('a parent downloads their data, then deletes their account', async ({ mail }) => {
  await withPage(
    browser,
    phone,
    async (page) => {
      await registerAccount(page.context(), shop.baseUrl, PARENT);
      await page.goto(`${shop.baseUrl}/dashboard?tab=settings`);
      await expect(page.getByRole('heading', { name: 'Your Data' })).toBeVisible();
      await check(page, 'your-data-settings-phone');

      await page.getByRole('button', { name: 'Download my data' }).click();
      await expect(page.getByRole('heading', { name: 'Download My Data', level: 1 })).toBeVisible();
      await check(page, 'your-data-download-phone');
      await page.getByLabel('Your password').fill(PARENT.password);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^little-lantern-books-data-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(await readFile(await download.path(), 'utf8'));
      expect(data.account).toMatchObject({ email: PARENT.email, firstName: 'Juniper', lastName: 'Hollis' });

      await page.goto(`${shop.baseUrl}/dashboard?tab=settings`);
      await page.getByRole('link', { name: 'Delete my account' }).click();
      await expect(page.getByRole('heading', { name: 'Delete My Account', level: 1 })).toBeVisible();
      await expect(page.getByText('Your orders: the books, the amounts, the date')).toBeVisible();
      await check(page, 'your-data-delete-phone');
      // Without the box ticked nothing happens, and the form says why.
      await page.getByLabel('Your password').fill(PARENT.password);
      const refused = await submitForm(page, page.getByRole('button', { name: 'Delete my account' }));
      expect(refused.status()).toBe(400);
      await expectSummary(page, 'delete-account-problems', PRIVACY_MESSAGES.deleteTitle, [
        ['delete-confirm', PRIVACY_MESSAGES.confirmNeeded],
      ]);
      await check(page, 'your-data-delete-refused-phone');

      await page.getByLabel('Your password').fill(PARENT.password);
      await page.getByLabel('I understand: delete my account and everything above').check();
      await submitAndFollow(page, page.getByRole('button', { name: 'Delete my account' }), {
        post: '/dashboard/delete-account',
        landing: '/account-deleted',
      });
      await expect(page.getByRole('heading', { name: 'Your account has been deleted' })).toBeVisible();
      await check(page, 'your-data-deleted-phone');

      // Signed out, and the account is gone.
      await page.goto(`${shop.baseUrl}/dashboard`);
      await expect(page).toHaveURL(/\/login/);
      await page.locator('#signin-email').fill(PARENT.email);
      await page.locator('#signin-password').fill(PARENT.password);
      const signIn = await submitForm(page, page.getByRole('button', { name: 'Sign In', exact: true }));
      expect(signIn.status()).toBe(401);
    },
    { allow: (problem) => isDocumentError('/dashboard/delete-account', 400)(problem) || isDocumentError('/login', 401)(problem) },
  );
  const goodbye = await mail.latest(PARENT.email, 'Your Little Lantern Books account has been deleted');
  expect(goodbye.text).toContain('This is the last email we send to this address');
});

test('the operator finds the account of a parent who writes in', async () => {
  await withPage(browser, desktop, async (page) => {
    await registerAccount(page.context(), shop.baseUrl, WRITES_IN);
    await page.context().clearCookies();
    await page.goto(`${shop.baseUrl}/login`);
    await page.locator('#signin-email').fill(operator.email);
    await page.locator('#signin-password').fill(operator.password);
    await submitAndFollow(page, page.getByRole('button', { name: 'Sign In', exact: true }), {
      post: '/login',
      landing: '/admin/two-factor',
    });
    await page.getByLabel('Code', { exact: true }).fill(currentCode(operator.totpSecret!, Date.now()));
    await submitAndFollow(page, page.getByRole('button', { name: 'Continue' }), { post: '/admin/two-factor', landing: '/admin' });
    await page.getByRole('link', { name: 'Privacy', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Privacy requests', level: 1 })).toBeVisible();
    await page.getByLabel('The parent’s email address').fill(WRITES_IN.email.toUpperCase());
    await page.getByRole('button', { name: 'Find the account' }).click();
    await expect(page.getByRole('heading', { name: 'Rowan Ashdown' })).toBeVisible();
    await check(page, 'your-data-admin-desktop');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download their data' }).click(),
    ]);
    expect(JSON.parse(await readFile(await download.path(), 'utf8')).account.email).toBe(WRITES_IN.email);
  });
});
