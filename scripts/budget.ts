import { createServer } from 'node:http';
import { createPaymentProvider } from '../src/features/payments/index.ts';
// `npm run budget`: how much of our JavaScript each page executes, and how big the stylesheets
// are, gzipped, read from the built assets (run `npm run build` first). Pages are rendered by
// the real app on a scratch database; each budget is checked and the script fails when one is
// exceeded.
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectDb, migrateLatest } from '../src/db.ts';
import { createLogger } from '../src/log.ts';
import { BUILD_DIR, loadAssets, readManifest, STYLESHEETS } from '../src/web/assets.ts';
import { openSessionStore } from '../src/web/session.ts';
import { seedCatalogue } from '../seeds/books.ts';
import { createMailer } from '../src/features/mail/mailer.ts';
import { watchCatalogue } from '../src/features/catalog/catalogue-watch.ts';
import { createDeferred } from '../src/lib/deferred.ts';
import { createServices } from '../src/services.ts';
import { BEFORE_INTERACTION_KB, STYLESHEET_KB, WITH_ISLANDS_KB } from './budgets.ts';

// The pages a parent browses are held to the budgets; the rest are reported.
const BUDGETED = ['/', '/books', '/books/1', '/about', '/termsofuse', '/copyrighttrademark', '/privacy'];
const REPORTED = ['/contact', '/cart', '/login', '/simple-checkout'];

const manifest = readManifest();
const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [`/${chunk.file}`, key]));
const gz = (key: string) => gzipSync(readFileSync(path.join(BUILD_DIR, manifest[key]!.file)), { level: 9 }).length;

/** A chunk and everything it imports statically: what runs when it loads. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

function islandChunk(name: string): string {
  const key = Object.keys(manifest).find((k) => k.startsWith(`islands/${name}/`) && manifest[k]!.src === k && k.includes('mount'));
  if (!key) throw new Error(`no built chunk for island ${name}`);
  return key;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-budget-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = connectDb({ dataDir });
  await migrateLatest(db);
  await seedCatalogue(db);
  const sessions = await openSessionStore(config, db);
  const log = createLogger('silent');
  const services = createServices({
    config,
    db,
    log,
    mailer: createMailer({ db, config, log }),
    payments: createPaymentProvider({ config, db }),
    catalogue: watchCatalogue({ db, soleServer: true }),
    later: createDeferred((err) => log.error({ err }, 'background work failed')),
  });
  const app = createApp({ config, db, sessions, log, assets: loadAssets(), services });
  const server = createServer(app).listen(0);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let failed = false;
  console.log(`| page | before interaction (KB gz) | with its islands open (KB gz) | islands |`);
  console.log(`|---|---|---|---|`);
  for (const page of [...BUDGETED, ...REPORTED]) {
    const html = await (await fetch(base + page)).text();
    const entries = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => byFile.get(m[1]!)!);
    const islands = [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]!))];
    const before = new Set(entries.flatMap((e) => [...closure(e)]));
    const after = new Set([...before, ...islands.flatMap((i) => [...closure(islandChunk(i))])]);
    const beforeBytes = [...before].reduce((sum, k) => sum + gz(k), 0);
    const afterBytes = [...after].reduce((sum, k) => sum + gz(k), 0);
    const over = BUDGETED.includes(page) && (beforeBytes > BEFORE_INTERACTION_KB * 1024 || afterBytes > WITH_ISLANDS_KB * 1024);
    failed ||= over;
    console.log(`| ${page} | ${kb(beforeBytes)} | ${kb(afterBytes)} | ${islands.join(', ') || '-'}${over ? ' OVER BUDGET' : ''} |`);
  }
  console.log(
    `\nBudgets for ${BUDGETED.join(' ')}: ${BEFORE_INTERACTION_KB} KB before any interaction, ${WITH_ISLANDS_KB} KB with the page's islands open.`,
  );

  const shopCss = gz(STYLESHEETS.shop);
  const cssOver = shopCss > STYLESHEET_KB * 1024;
  failed ||= cssOver;
  console.log(`\n| stylesheet | KB gz |\n|---|---|`);
  console.log(`| every page (${STYLESHEETS.shop}) | ${kb(shopCss)}${cssOver ? ' OVER BUDGET' : ''} |`);
  console.log(`| admin pages, on top (${STYLESHEETS.admin}) | ${kb(gz(STYLESHEETS.admin))} |`);
  console.log(`\nBudget for the stylesheet every page loads: ${STYLESHEET_KB} KB.`);
  server.close();
  await sessions.close();
  await db.destroy();
  if (failed) process.exit(1);
}

await main();
