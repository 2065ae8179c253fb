// `npm run lighthouse`: Lighthouse's mobile audit of the pages a parent meets first, against
// the built shop running in production mode on a scratch SQLite database. Prints the four
// scores per page and the audits that cost points; fails when accessibility, best practices
// or SEO is below 100 anywhere (speed is reported, not gated). Nothing here reaches the network.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../test/e2e/chromium.ts';
import { startProductionServer, type ProductionServer } from '../test/helpers/production-server.ts';
import { CATEGORIES, formatReport, gateFailures, reportPage, type LighthouseResult, type PageReport } from './lighthouse-report.ts';

interface Target {
  path: string;
  /** The session cookie (name=value) the browser holds before this page is audited. */
  cookie?: string;
}

/** A session whose cart holds one copy of `bookId`, added through the JSON API as the drawer does. */
async function cartCookie(baseUrl: string, bookId: number): Promise<string> {
  const session = await fetch(`${baseUrl}/api/session`);
  const cookie = session.headers.getSetCookie()[0]?.split(';')[0];
  if (!cookie) throw new Error('GET /api/session set no session cookie');
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const added = await fetch(`${baseUrl}/api/cart`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrfToken, origin: baseUrl },
    body: JSON.stringify({ bookId, quantity: 1 }),
  });
  if (!added.ok) throw new Error(`POST /api/cart answered ${added.status}: ${await added.text()}`);
  return cookie;
}

async function targets(baseUrl: string): Promise<Target[]> {
  const books = (await (await fetch(`${baseUrl}/api/books`)).json()) as { id: number; inStock: number }[];
  const first = books[0];
  const inStock = books.find((b) => b.inStock > 0);
  if (!first || !inStock) throw new Error('the catalogue is empty');
  return [
    { path: '/' },
    { path: '/books' },
    { path: `/books/${first.id}` },
    { path: '/login' },
    { path: '/checkout', cookie: await cartCookie(baseUrl, inStock.id) },
  ];
}

/**
 * Puts the cookie in the browser's own cookie jar, which Lighthouse's storage reset leaves alone
 * (a Cookie header passed through Lighthouse's extraHeaders never reached the shop from this
 * Chromium), and checks that the page now shows the cart rather than the empty checkout.
 */
async function holdCookie(port: number, url: string, cookie: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const [name, ...value] = cookie.split('=');
    await context.addCookies([{ name: name!, value: value.join('='), url }]);
    const page = await context.newPage();
    await page.goto(url);
    const empty = await page.getByText('Add some books before checking out').count();
    await page.close();
    if (empty) throw new Error(`${url} shows an empty cart: the session cookie did not reach it`);
  } finally {
    await browser.close();
  }
}

/**
 * One page's result. On a loaded machine Chromium sometimes loses the trace of a page load
 * (Lighthouse's NO_NAVSTART and kin, which say "run Lighthouse again"): such a run scores
 * nothing, so it is run again, at most twice more. Scores are never retried.
 */
async function lighthouseResult(url: string, port: number): Promise<LighthouseResult> {
  let problem = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const run = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableFullPageScreenshot: true,
    });
    if (run && !run.lhr.runtimeError) return run.lhr;
    problem = run?.lhr.runtimeError?.message ?? 'no result';
    process.stderr.write(`Lighthouse could not audit ${url}, attempt ${attempt} of 3: ${problem}\n`);
  }
  throw new Error(`Lighthouse could not audit ${url}: ${problem}`);
}

async function audit(shop: ProductionServer): Promise<PageReport[]> {
  // chrome-launcher gives Chromium a fresh profile directory and removes it on kill().
  const chrome = await launch({ chromePath: chromiumPath(), chromeFlags: CHROMIUM_ARGS, logLevel: 'error' });
  try {
    const reports: PageReport[] = [];
    for (const target of await targets(shop.baseUrl)) {
      const url = `${shop.baseUrl}${target.path}`;
      if (target.cookie) await holdCookie(chrome.port, url, target.cookie);
      reports.push(reportPage(target.path, await lighthouseResult(url, chrome.port)));
      process.stderr.write(`audited ${target.path}\n`);
    }
    return reports;
  } finally {
    chrome.kill();
  }
}

async function main(): Promise<number> {
  const shop = await startProductionServer({
    NODE_ENV: 'production',
    SEED_CATALOGUE: 'true',
    // The built-in card sandbox stands in for Stripe, as on a machine without live keys.
    ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
  });
  try {
    const reports = await audit(shop);
    console.log(formatReport(reports));
    const failures = gateFailures(reports);
    if (!failures.length) {
      console.log('\nAccessibility, best practices and SEO are 100 on every page.');
      return 0;
    }
    console.log(`\nBelow 100:\n  ${failures.join('\n  ')}`);
    return 1;
  } finally {
    await shop.cleanUp();
  }
}

process.exitCode = await main();
