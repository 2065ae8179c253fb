// The operator's first day, in Chromium: `npm run admin:create` on the server, sign in with the
// one-time password, choose a password, enrol an authenticator, keep the recovery codes, read the
// status page; then sign in again on a phone with a code. axe and a screenshot on every page.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCode } from '../../src/features/admin/two-factor.ts';
import { desktop, expectNoAxeViolations, launchBrowser, phone, ROOT, screenshot, startShop, submitAndFollow, withPage, type Shop } from './harness.ts';
import { pathOf } from './steps.ts';

const EMAIL = 'owner@littlelantern.example';
const PASSWORD = 'a-lantern-for-olive';

let shop: Shop;
let browser: Browser;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shop-e2e-admin-'));
  shop = await startShop({ env: { DATA_DIR: dataDir } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

/** `npm run admin:create` against the running shop's database; returns the printed one-time password. */
async function adminCreate(): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'), DOTENV_CONFIG_QUIET: 'true' };
  delete env.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/cli/admin-create.ts', '--email', EMAIL, '--first-name', 'Olive'], { cwd: ROOT, env });
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

describe('the shop admin', () => {
  it('from admin:create to the status page, on a desktop', async () => {
    const oneTime = await adminCreate();
    await withPage(browser, desktop, async (page) => {
      await signIn(page, oneTime, '/change-password');
      await check(page, 'admin-change-password-desktop');
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm new password', { exact: true }).fill(PASSWORD);
      await submitAndFollow(page, page.getByRole('button', { name: 'Save New Password' }), { post: '/change-password', landing: '/admin/two-factor' });

      expect(await page.locator('.qr svg').count()).toBe(1);
      await check(page, 'admin-enrol-desktop');
      await page.getByText("Can't scan? Enter the key by hand").click();
      secret = (await page.locator('code.secret').innerText()).replace(/\s/g, '');
      await page.getByLabel('Code from the app').fill(currentCode(secret));
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()]);
      await page.waitForSelector('ol.recovery-codes');
      expect(await page.locator('ol.recovery-codes li').count()).toBe(10);
      await check(page, 'admin-recovery-codes-desktop');

      await Promise.all([page.waitForURL((url) => url.pathname === '/admin'), page.getByRole('button', { name: /go to the admin/ }).click()]);
      expect(await page.locator('h1').innerText()).toBe('Shop status');
      for (const card of ['Payment system', 'Database', 'Email system']) await expect(page.getByRole('heading', { name: card, level: 2 }).count()).resolves.toBe(1);
      expect(await page.locator('main').innerText()).toContain('4242 4242 4242 4242');
      await check(page, 'admin-status-desktop');
    });
  });

  it('signs in again on a phone with a code and reads the status page', async () => {
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
});
