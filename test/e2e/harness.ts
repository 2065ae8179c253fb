// Shared machinery for the browser journeys (test/e2e/*.e2e.ts, run by `npm run test:e2e`).
//
// startShop()      the real server (compiled src/server.ts) as a child process on a free port with a fresh
//                  SQLite database; MariaDB/Redis only when E2E_DATABASE_URL / E2E_REDIS_URL are set.
// openPage()       a fresh context + page that records console errors, page errors and CSP violations.
// screenshot(), expectNoAxeViolations(), phone, desktop.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page, Response } from '@playwright/test';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');
const SERVER_SCRIPT = 'dist-server/src/server.js';

// ---------------------------------------------------------------------------------------------
// The shop

export interface Shop {
  baseUrl: string;
  /** The server's environment: a command-line tool run with it works on the same database. */
  env: NodeJS.ProcessEnv;
  /** Everything the server printed so far (LOG_LEVEL=warn, so normally nothing). */
  output(): string;
  /** SIGTERM, then waits for a clean exit; throws if the shutdown was not graceful. */
  stop(): Promise<void>;
}

/**
 * A free port in lane `lane` of `of` (half the port number, modulo `of`: Linux hands out odd
 * ports for listening, so the port itself would put them all in one lane). Workers starting
 * shops at the same moment would otherwise be handed the same just-released port (the system
 * gives it out again at once), and one would take the other's /healthz for its own. The ports
 * tried are held until one fits, so each try is a different port.
 */
export async function freePortInLane(lane: number, of: number): Promise<number> {
  const held: Server[] = [];
  try {
    for (let tries = 0; tries < 1000; tries++) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
      held.push(server);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      if (port && (port >> 1) % of === lane % of) return port;
    }
    throw new Error(`no free port in lane ${lane % of} of ${of}`);
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export interface StartShopOptions {
  /** Prefixes the server's output under E2E_VERBOSE. */
  name?: string;
  /** Where to listen (a free port by default). */
  port?: number;
  timeoutMs?: number;
  /**
   * Extra environment variables for the server, applied over the defaults above (e.g. Stripe
   * keys pointing at a local stand-in: `startShop({ env: { STRIPE_SECRET_KEY: ... } })`).
   */
  env?: Record<string, string>;
}

export async function startShop({
  name = 'shop',
  port: givenPort,
  timeoutMs = 60_000,
  env: extraEnv = {},
}: StartShopOptions = {}): Promise<Shop> {
  const port = givenPort ?? (await freePort());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The server sees exactly this configuration, whatever the shell or a developer's .env holds.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.SESSION_SECRET;
  delete env.PUBLIC_URL;
  for (const variable of ['SMTP_URL', 'STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL'])
    delete env[variable];
  Object.assign(env, {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    SEED_CATALOGUE: 'true',
    TRUST_PROXY: 'false',
    PASSWORD_HASH_COST: 'test',
    // dotenv/config in server.ts would otherwise load the repo's .env, if any.
    DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
    DOTENV_CONFIG_QUIET: 'true',
  });
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  if (process.env.E2E_REDIS_URL) env.REDIS_URL = process.env.E2E_REDIS_URL;
  Object.assign(env, extraEnv);

  // The compiled server, as production runs it: `npm run test:e2e` and CI build it first.
  if (!existsSync(path.join(ROOT, SERVER_SCRIPT))) throw new Error(`${SERVER_SCRIPT} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
    if (process.env.E2E_VERBOSE) process.stderr.write(`[${name}] ${chunk.toString('utf8')}`);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // If the test process dies first, take the server with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const cleanUp = async () => {
    process.removeListener('exit', killOnExit);
    await rm(dataDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;

  try {
    await waitForHealthy(baseUrl, child, exited, timeoutMs);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    await cleanUp();
    throw new Error(`${(err as Error).message}\n--- server output ---\n${log || '(none)'}`, { cause: err });
  }

  // A server that goes away before stop() is a failure in itself (a crash, or someone killed it).
  let stopRequested = false;
  let diedEarly: string | undefined;
  void exited.then(({ code, signal }) => {
    if (!stopRequested) {
      diedEarly = `the shop (pid ${child.pid}) exited by itself during the tests (exit code ${code}, signal ${signal})`;
      process.stderr.write(`[e2e] ${diedEarly}\n`);
    }
  });

  let stopping: Promise<void> | undefined;
  return {
    baseUrl,
    env,
    output: () => log,
    stop: () =>
      (stopping ??= (async () => {
        stopRequested = true;
        const { code, signal } = await stopChild(child, exited);
        await cleanUp();
        if (diedEarly) throw new Error(`${diedEarly}\n--- server output ---\n${log || '(none)'}`);
        if (code !== 0) {
          throw new Error(
            `the shop did not shut down cleanly on SIGTERM (exit code ${code}, signal ${signal})\n--- server output ---\n${log || '(none)'}`,
          );
        }
      })()),
  };
}

async function waitForHealthy(
  baseUrl: string,
  child: ChildProcess,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  timeoutMs: number,
): Promise<void> {
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((e) => (exit = e));
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (exit) throw new Error(`the shop exited during start-up (exit code ${exit.code}, signal ${exit.signal})`);
    try {
      const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the shop (pid ${child.pid}) did not answer ${baseUrl}/healthz within ${timeoutMs} ms (last: ${lastError})`);
}

async function stopChild(
  child: ChildProcess,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Pages (the browser is Playwright's, launched as playwright.config.ts says)

export const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};

/** A small phone: 360x740. */
export const smallPhone: BrowserContextOptions = {
  ...phone,
  viewport: { width: 360, height: 740 },
};

export const desktop: BrowserContextOptions = {
  viewport: { width: 1280, height: 900 },
};

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught page errors and CSP violations seen so far. */
  problems: string[];
  /** Fails the test if any problem was recorded (ignoring those `allow` matches). */
  expectNoProblems(allow?: (problem: string) => boolean): void;
  close(): Promise<void>;
}

export async function openPage(browser: Browser, options: BrowserContextOptions = desktop): Promise<OpenedPage> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  // Chromium also logs CSP violations as console errors; this names the directive explicitly.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || e.documentURI}:${e.lineNumber}`,
      );
    });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location();
    problems.push(`console error on ${page.url()}: ${msg.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
  });
  page.on('pageerror', (err) => {
    problems.push(`uncaught error on ${page.url()}: ${err.stack ?? err.message}`);
  });
  return {
    context,
    page,
    problems,
    expectNoProblems(allow = () => false) {
      const left = problems.filter((p) => !allow(p));
      if (left.length) throw new Error(`the page reported ${left.length} problem(s):\n  - ${left.join('\n  - ')}`);
    },
    close: () => context.close(),
  };
}

/**
 * Runs `journey` on a fresh page and then fails it on any console error, page error or CSP
 * violation. When the journey itself fails, those problems are appended to its error.
 */
export async function withPage(
  browser: Browser,
  options: BrowserContextOptions,
  journey: (page: Page, opened: OpenedPage) => Promise<void>,
  { allow }: { allow?: (problem: string) => boolean } = {},
): Promise<void> {
  const opened = await openPage(browser, options);
  try {
    try {
      await journey(opened.page, opened);
    } catch (err) {
      const seen = opened.problems.filter((p) => !allow?.(p));
      if (seen.length && err instanceof Error) {
        err.message += `\n\nThe page also reported:\n  - ${seen.join('\n  - ')}`;
      }
      throw err;
    }
    opened.expectNoProblems(allow);
  } finally {
    await opened.close();
  }
}

// The pictures are for people to look at, and a run that nobody looks at (CI) skips them: a
// full-page picture costs about as much as the page's axe scan.
const TAKE_SCREENSHOTS = process.env.E2E_SCREENSHOTS !== '0';

/**
 * Saves a full-page PNG to test-results/screenshots/<name>.png (`fullPage: false`: just the
 * viewport, e.g. for a fixed drawer over a long page), unless E2E_SCREENSHOTS=0.
 */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
}

// ---------------------------------------------------------------------------------------------
// Accessibility

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Runs axe-core on the current page and fails with one readable line per offending element. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Legacy mode runs axe in the page itself. The default opens a blank page of its own for the
  // last step, to merge results from frames of other origins, which the shop's pages never hold
  // (the payment sandbox draws its card fields in the page): it doubles each scan's time here.
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode(true).analyze();
  if (!results.violations.length) return;
  const lines: string[] = [];
  for (const v of results.violations) {
    lines.push(`${v.id} (${v.impact ?? 'n/a'}): ${v.help} [${v.helpUrl}]`);
    for (const node of v.nodes) {
      const target = node.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' | ');
      const detail = (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim();
      lines.push(`    ${target}${detail ? `  -- ${detail.slice(0, 240)}` : ''}`);
    }
  }
  throw new Error(`axe found ${results.violations.length} accessibility violation(s) on ${page.url()}:\n  ${lines.join('\n  ')}`);
}

// ---------------------------------------------------------------------------------------------
// Built assets and small shared checks

export interface BuiltAssets {
  /** URL path of the one script every page loads (islands/main.ts), e.g. /assets/main-abc.js. */
  entryScript: string;
  /** URL path of an island's lazily imported chunk, by its source path (islands/cart-drawer/mount.tsx). */
  chunk: (source: string) => string;
}

/** Reads the Vite manifest that `npm run build` wrote to dist/.vite/manifest.json. */
export function builtAssets(): BuiltAssets {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const file = (source: string) => {
    const chunk = manifest[source];
    if (!chunk) throw new Error(`dist/.vite/manifest.json has no entry for ${source}`);
    return `/${chunk.file}`;
  };
  return { entryScript: file('islands/main.ts'), chunk: file };
}

/**
 * For withPage's `allow`: Chromium logs a document that answers with an error status (a 404
 * page, a form re-rendered with 401) as a failed resource. Matches only that message, for the
 * document at `pathname` itself (not an image or a script on it).
 */
export function isDocumentError(pathname: string, status = 404): (problem: string) => boolean {
  return (p) => p.includes(`status of ${status} `) && p.endsWith(`${pathname}:0)`);
}

export interface Account {
  firstName: string;
  lastName?: string;
  email: string;
  password: string;
}

/**
 * The headers of a change sent as the islands send it: the session's token, or, for a browser
 * without a session yet (reading makes none), the same-origin signal its first change carries.
 */
export function changeHeaders(csrfToken: string | null): Record<string, string> {
  return csrfToken ? { 'x-csrf-token': csrfToken } : { 'sec-fetch-site': 'same-origin' };
}

/**
 * Creates an account through the JSON API (POST /api/auth/signup with the session's CSRF
 * token, or, for a context without a session yet, saying it came from the shop's page as a
 * browser does). It uses the context's cookies, so the context's pages are then signed in as it.
 */
export async function registerAccount(context: BrowserContext, baseUrl: string, account: Account): Promise<void> {
  const session = await context.request.get(`${baseUrl}/api/session`);
  if (!session.ok()) throw new Error(`GET /api/session answered ${session.status()}`);
  const { csrfToken } = (await session.json()) as { csrfToken: string | null };
  const res = await context.request.post(`${baseUrl}/api/auth/signup`, {
    headers: changeHeaders(csrfToken),
    data: { lastName: '', ...account },
  });
  if (res.status() !== 201) throw new Error(`POST /api/auth/signup answered ${res.status()}: ${await res.text()}`);
}

// ---------------------------------------------------------------------------------------------
// Plain HTML forms

/**
 * Clicks a plain HTML form's submit button and waits until the page that answers it has loaded.
 * Returns the response to the POST itself (a 303 when it redirected, else the re-rendered page).
 */
export async function submitForm(page: Page, submit: Locator): Promise<Response> {
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && r.isNavigationRequest()),
    page.waitForEvent('load'),
    submit.click(),
  ]);
  const response = await request.response();
  if (!response) throw new Error(`POST ${new URL(request.url()).pathname} got no response`);
  return response;
}

/**
 * submitForm(), insisting that the POST went to `post`, answered 303, and that the browser
 * followed it to `landing` (a pathname) which answered 200. The error quotes what the page says.
 */
export async function submitAndFollow(page: Page, submit: Locator, { post, landing }: { post: string; landing: string }): Promise<void> {
  const response = await submitForm(page, submit);
  const postedTo = new URL(response.url()).pathname;
  const landed = new URL(page.url()).pathname;
  const landingStatus = (await response.request().redirectedTo()?.response())?.status();
  if (postedTo === post && response.status() === 303 && landed === landing && landingStatus === 200) return;
  const says = (
    await page
      .locator('main')
      .innerText()
      .catch(() => '')
  )
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 240);
  throw new Error(
    `expected POST ${post} to answer 303 and land on ${landing} (200); POST ${postedTo} answered ${response.status()}` +
      ` and the browser is on ${landed}${landingStatus ? ` (${landingStatus})` : ''}. The page says: "${says}"`,
  );
}
