// The sale as the parents who only browse live it, on the bench's MariaDB shop: anonymous
// /books and /books/1 alone, then while parents start card payments at a steady rate, each
// from an address of its own and as a guest (add a book, totals, an account made at
// checkout, the payment started), with express.static's rounds taken in turns beside them.
import { connectDb } from '../../src/db.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import { createLogger } from '../../src/log.ts';
import { SaleParent, addressInBlock } from '../../test/helpers/sale-day-parent.ts';
import { measure, type Target } from './load.ts';
import type { Running } from './processes.ts';
import { percentile, summarise, type Round, type Summary } from './stats.ts';
import { cpuMsOf, machineTicks, processMatching } from './proc.ts';
import { cpus } from 'node:os';

/** The title the parents buy; its stock is large, so a hold changes nothing a visitor sees. */
export const SALE_TITLE = 1;
const SALE_STOCK = 50_000;
export const SALE_RATES = [0, 10, 20] as const;
export const SALE_PAGES = ['/books', '/books/1'] as const;

export interface PaymentStarts {
  started: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers of 400 or more and failed connections over every step, by status or code. */
  errorKinds: Record<string, number>;
}

export interface SaleRow {
  page: string;
  rate: number;
  shop: Summary;
  expressStatic: Summary;
  /** Share of the machine's CPU time in use over this load's rounds, everything on it counted. */
  machineBusy: number;
}

/** What one payment start costs the machine, measured with nothing else running. */
export interface StartCost {
  rate: number;
  started: number;
  /** CPU ms of all the shop's processes per payment start (argon2's threads included). */
  shopCpuMs: number;
  /** CPU ms of MariaDB per payment start. */
  databaseCpuMs: number | undefined;
}

export interface SaleBrowsing {
  rows: SaleRow[];
  starts: Map<number, PaymentStarts>;
  cost: StartCost;
}

const COST_RATE = 5;
const COST_SECONDS = 8;

async function startCost(shop: Running, databaseUrl: string): Promise<StartCost> {
  const port = new URL(databaseUrl).port;
  const database = processMatching(new RegExp(`mariadbd .*--port=${port}\\b`));
  const before = { shop: cpuMsOf(shop.pid), database: database ? cpuMsOf(database) : 0 };
  const stop = paymentsAtRate(shop.baseUrl, COST_RATE, 19);
  await new Promise((r) => setTimeout(r, COST_SECONDS * 1000));
  const { started } = await stop();
  const per = (ms: number) => ms / Math.max(1, started);
  return {
    rate: COST_RATE,
    started,
    shopCpuMs: per(cpuMsOf(shop.pid) - before.shop),
    databaseCpuMs: database ? per(cpuMsOf(database) - before.database) : undefined,
  };
}

/** Parents starting payments at `perSecond`, until stopped; the payment start's own latency is kept. */
function paymentsAtRate(baseUrl: string, perSecond: number, block: number) {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  const failed = (kind: string | number) => (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);
  const running: Promise<void>[] = [];
  let stopped = false;
  const parentPays = async (i: number) => {
    const parent = new SaleParent(baseUrl, addressInBlock(block)(i));
    try {
      await parent.add(SALE_TITLE, 1);
      const totals = await parent.totals();
      if (totals.status >= 400) return void failed(totals.status);
      const startedAt = performance.now();
      const { account, start } = await parent.payAsGuest();
      if (account.status >= 400) return void failed(account.status);
      if (start.status >= 400) return void failed(start.status);
      latencies.push(performance.now() - startedAt);
    } catch (err) {
      failed((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message.slice(0, 40));
    }
  };
  const loop = (async () => {
    const start = performance.now();
    for (let i = 0; !stopped; i++) {
      const wait = start + (i * 1000) / perSecond - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (!stopped) running.push(parentPays(i));
    }
  })();
  return async (): Promise<PaymentStarts> => {
    stopped = true;
    await loop;
    await Promise.all(running);
    return {
      started: latencies.length,
      p50Ms: latencies.length ? percentile(latencies, 50) : 0,
      p99Ms: latencies.length ? percentile(latencies, 99) : 0,
      errorKinds,
    };
  };
}

export async function saleBrowsing(
  shop: Running,
  expressStatic: Running & { path: string },
  databaseUrl: string,
  dataDir: string,
  { rounds, seconds, warmUpSeconds, say }: { rounds: number; seconds: number; warmUpSeconds: number; say: (line: string) => void },
): Promise<SaleBrowsing> {
  const db = connectDb({ databaseUrl, dataDir, log: createLogger('silent') });
  try {
    await db.transaction(async (trx) => {
      await trx('books').where({ id: SALE_TITLE }).update({ inStock: SALE_STOCK });
      await bumpCatalogueVersion(trx);
    });
  } finally {
    await db.destroy();
  }
  say(`sale: what one payment start costs, ${COST_RATE} a second alone`);
  const cost = await startCost(shop, databaseUrl);
  const rows: SaleRow[] = [];
  const starts = new Map<number, PaymentStarts>();
  const referenceTarget: Target = { path: expressStatic.path };
  for (const [i, rate] of SALE_RATES.entries()) {
    say(`sale: anonymous pages while ${rate} payment starts/s`);
    // Blocks 20 and up: the addresses of the sale-day rounds and the races stay apart.
    const stop = rate ? paymentsAtRate(shop.baseUrl, rate, 20 + i) : undefined;
    await measure(expressStatic.baseUrl, expressStatic.pid, referenceTarget, warmUpSeconds);
    for (const page of SALE_PAGES) await measure(shop.baseUrl, shop.pid, { path: page }, warmUpSeconds);
    const ticksBefore = machineTicks();
    const shopRounds = new Map<string, Round[]>(SALE_PAGES.map((p) => [p, []]));
    const referenceRounds: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      referenceRounds.push(await measure(expressStatic.baseUrl, expressStatic.pid, referenceTarget, seconds));
      for (const page of SALE_PAGES) shopRounds.get(page)!.push(await measure(shop.baseUrl, shop.pid, { path: page }, seconds));
    }
    const ticksAfter = machineTicks();
    const machineBusy = 1 - (ticksAfter.idle - ticksBefore.idle) / (ticksAfter.total - ticksBefore.total);
    if (stop) starts.set(rate, await stop());
    const reference = summarise(referenceRounds);
    for (const page of SALE_PAGES) rows.push({ page, rate, shop: summarise(shopRounds.get(page)!), expressStatic: reference, machineBusy });
  }
  return { rows, starts, cost };
}

const loadOf = (rate: number) => (rate ? `while ${rate} payment starts/s` : 'alone');

/** The sale's table: each page under each load, against itself alone and against express.static in the same rounds. */
export function saleBrowsingTable({ rows, starts, cost }: SaleBrowsing): string[] {
  const database = cost.databaseCpuMs === undefined ? '' : ` and ${cost.databaseCpuMs.toFixed(0)} ms of MariaDB's`;
  const lines = [
    '## Sale: the parents who only browse while others pay',
    '',
    'Anonymous /books and /books/1 from 10 connections (autocannon), on the MariaDB shop above, alone and then while parents',
    'start card payments at a steady rate, each from an address of its own and as a guest: a book added, the totals, an account',
    "made at checkout, the payment started. express.static rounds are taken in turns with the shop's in the same load. A payment",
    "start's time runs from the account's request to the payment's answer; its errors count every step. The last column is how",
    "much of the machine's CPU was in use over that load's rounds, the load generator's and MariaDB's included.",
    '',
    `- One payment start (add a book, totals, an account made at checkout, the payment started), measured alone at ${cost.rate} a second (${cost.started} starts): ${cost.shopCpuMs.toFixed(0)} ms of the shop's CPU${database}.`,
    `  So 10 starts a second keep ${((cost.shopCpuMs + (cost.databaseCpuMs ?? 0)) / 100).toFixed(1)} of this machine's ${cpus().length} cores busy, and 20 a second ${((cost.shopCpuMs + (cost.databaseCpuMs ?? 0)) / 50).toFixed(1)}.`,
    '',
    '| sale (MariaDB + Redis) | anonymous req/s min / median / max | p50 ms | p99 ms | errors | × same page alone | × express.static (same rounds) | express.static req/s | payment starts: done, p50 / p99 ms | payment errors | machine CPU in use |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const alone = rows.find((r) => r.page === row.page && r.rate === 0)!;
    const s = row.shop;
    const paid = starts.get(row.rate);
    const paidCell = paid ? `${paid.started}, ${paid.p50Ms.toFixed(0)} / ${paid.p99Ms.toFixed(0)}` : '-';
    const paidErrors = paid ? errorCount(paid.errorKinds) : '-';
    lines.push(
      `| GET ${row.page} ${loadOf(row.rate)} | ${s.rps.min.toFixed(0)} / ${s.rps.median.toFixed(0)} / ${s.rps.max.toFixed(0)} | ${s.p50Ms.toFixed(1)} | ${s.p99Ms.toFixed(1)} | ${s.errors} | ${(s.rps.median / alone.shop.rps.median).toFixed(2)}x | ${(s.rps.median / row.expressStatic.rps.median).toFixed(2)}x | ${row.expressStatic.rps.median.toFixed(0)} | ${paidCell} | ${paidErrors} | ${(row.machineBusy * 100).toFixed(0)}% |`,
    );
  }
  return lines;
}

function errorCount(kinds: Record<string, number>): string {
  const total = Object.values(kinds).reduce((a, b) => a + b, 0);
  const detail = Object.entries(kinds)
    .map(([kind, n]) => `${n}× ${kind}`)
    .join(', ');
  return detail ? `${total} (${detail})` : '0';
}

/** The figures: at 10/s at least 0.8x alone and p99 < 50 ms; at 20/s 0.5x and 100 ms; starts p99 < 1 s, no 5xx. */
export function saleBrowsingGoals({ rows, starts }: SaleBrowsing): { line: string; met: boolean }[] {
  const wants = { 10: { times: 0.8, p99: 50 }, 20: { times: 0.5, p99: 100 } } as Record<number, { times: number; p99: number }>;
  const goals: { line: string; met: boolean }[] = [];
  for (const row of rows) {
    const want = wants[row.rate];
    if (!want) continue;
    const alone = rows.find((r) => r.page === row.page && r.rate === 0)!;
    const times = row.shop.rps.median / alone.shop.rps.median;
    const met = times >= want.times && row.shop.p99Ms < want.p99 && row.shop.errors === 0;
    goals.push({
      line: `- Sale, GET ${row.page} ${loadOf(row.rate)}: ≥ ${want.times}x alone, p99 < ${want.p99} ms, no errors. ${times.toFixed(2)}x, p99 ${row.shop.p99Ms.toFixed(0)} ms, ${row.shop.errors} errors, ${met ? 'met' : 'NOT MET'}`,
      met,
    });
  }
  const fastest = starts.get(20);
  if (fastest) {
    const fiveHundreds = Object.entries(fastest.errorKinds)
      .filter(([kind]) => /^5\d\d$/.test(kind))
      .reduce((sum, [, n]) => sum + n, 0);
    const met = fastest.p99Ms < 1000 && fiveHundreds === 0;
    goals.push({
      line: `- Sale, payment starts at 20/s: p99 < 1 s, no 5xx. p99 ${fastest.p99Ms.toFixed(0)} ms, ${fiveHundreds} answers of 5xx, ${met ? 'met' : 'NOT MET'}`,
      met,
    });
  }
  return goals;
}
