// npm run bench [-- [--quick] [--sale-only] [--sale-day-only] [--out FILE]]: the shop as an
// operator runs it, on MariaDB + Redis and on the embedded defaults, under autocannon, beside two
// references serving the same bytes, measured in the same run; then on MariaDB the anonymous
// pages while parents pay (scripts/bench/sale-browsing.ts) and sale day (scripts/bench/sale-day.ts);
// then whether each goal is met. Prints the report and writes it to bench/results.md
// (--quick: one short round, to bench/results-quick.md; --sale-only: only the pages while parents
// pay, to bench/results-sale.md; --sale-day-only: only sale day, to bench/results-sale-day.md;
// --out: to FILE).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { measure, type Target } from './load.ts';
import { logSize, startCommand, startReference, startServices, startShop, type Running, type Shop } from './processes.ts';
import { machineTicks, processTree, rssMbOf } from './proc.ts';
import { steadyRound, type Step, type Visit } from './steady.ts';
import { errorsCell, markdownTable, summarise, type Round, type Row, type Summary } from './stats.ts';
import { saleDay, saleDayHeld, saleDayTable, type SaleDayRound } from './sale-day.ts';
import { saleBrowsing, saleBrowsingGoals, saleBrowsingTable, type SaleBrowsing } from './sale-browsing.ts';

const quick = process.argv.includes('--quick');
// Only the sale-day scenario, on MariaDB: what it checks does not depend on a quiet machine.
const saleDayOnly = process.argv.includes('--sale-day-only');
// Only the anonymous pages while parents pay, on MariaDB.
const saleOnly = process.argv.includes('--sale-only');
const onlyMariaDb = saleDayOnly || saleOnly;
const ROUNDS = quick ? 1 : 3;
const SECONDS = quick ? 2 : 5;
const WARM_UP_SECONDS = quick ? 1 : 2;
const MIXED_SECONDS = quick ? 3 : 10;
const MIXED_RATE = 300;
const START_UP_MS = 3000;
const REST_MS = quick ? 5000 : 20_000;
const OUTPUT = path.resolve(
  outputArgument() ??
    path.join('bench', saleDayOnly ? 'results-sale-day.md' : saleOnly ? 'results-sale.md' : quick ? 'results-quick.md' : 'results.md'),
);

function outputArgument(): string | undefined {
  const at = process.argv.indexOf('--out');
  if (at === -1) return undefined;
  const file = process.argv[at + 1];
  if (!file) throw new Error('--out needs a file name');
  return file;
}

const MARIADB = 'MariaDB + Redis';
const SQLITE = 'SQLite + SQL sessions';
const PAGES = ['/', '/books', '/books/1'];
const anonymous = (page: string) => `GET ${page}, anonymous`;
const withCart = (page: string) => `GET ${page}, session with a cart item`;
const LOGS_OFF = `${anonymous('/books')}, logs off (LOG_LEVEL=warn)`;
const CART_API = 'POST /api/cart + DELETE /api/cart/1 (session, CSRF)';
const MIXED = `mixed at ${MIXED_RATE} req/s: 60% pages, 20% /api/books, 20% cart API`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function rounds(server: Running, target: Target, label: string): Promise<Summary> {
  say(label);
  await measure(server.baseUrl, server.pid, target, WARM_UP_SECONDS);
  const results: Round[] = [];
  for (let i = 0; i < ROUNDS; i += 1) results.push(await measure(server.baseUrl, server.pid, target, SECONDS));
  return summarise(results);
}

/** A reference server kept running beside the shop, and the path it serves. */
interface Beside {
  server: Running;
  path: string;
}

/**
 * The shop's rounds taken in turns with express.static's: the machine's drift over a run is
 * larger than the differences measured, and taken in turns it falls on both sides of the ratio.
 */
async function pairedRounds(shop: Running, target: Target, label: string, beside: Beside): Promise<Pick<Row, 'summary' | 'reference'>> {
  say(label);
  const reference = { path: beside.path };
  await measure(beside.server.baseUrl, beside.server.pid, reference, WARM_UP_SECONDS);
  await measure(shop.baseUrl, shop.pid, target, WARM_UP_SECONDS);
  const shopRounds: Round[] = [];
  const referenceRounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    referenceRounds.push(await measure(beside.server.baseUrl, beside.server.pid, reference, SECONDS));
    shopRounds.push(await measure(shop.baseUrl, shop.pid, target, SECONDS));
  }
  return { summary: summarise(shopRounds), reference: summarise(referenceRounds) };
}

/**
 * A visitor as the cart island sees one: a session cookie holding a cart item, and its CSRF
 * token. The first addition makes the session, as a browser's does from the shop's own page.
 */
async function visitorWithCart(baseUrl: string): Promise<Record<string, string>> {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const added = await fetch(`${baseUrl}/api/cart`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ bookId: 3, quantity: 1 }),
  });
  keep(added);
  // Read to its end: the session is stored before the answer ends, not before it starts.
  const answer = await added.text();
  if (added.status !== 201) throw new Error(`could not fill a cart: ${added.status} ${answer}`);
  const session = await fetch(`${baseUrl}/api/session`, { headers: { cookie: cookie() } });
  const { csrfToken } = (await session.json()) as { csrfToken: string | null };
  if (!csrfToken) throw new Error('the session made by the first addition has no form token');
  return { cookie: cookie(), 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
}

// Each connection adds and removes through a visitor of its own (two connections on one cart
// would remove each other's line): more visitors than connections, lent out per addition.
const VISITORS = 50;
type Context = { visitor?: Record<string, string> };

/** POST /api/cart as the island sends it, then DELETE of that line: a line holds at most the copies in stock. */
function cartRequests(visitors: Record<string, string>[]): autocannon.Request[] {
  const free = [...visitors];
  return [
    {
      method: 'POST',
      path: '/api/cart',
      body: JSON.stringify({ bookId: 1, quantity: 1 }),
      setupRequest: (req, context) => {
        const visitor = free.pop() ?? visitors[0]!;
        (context as Context).visitor = visitor;
        // A copy each time: autocannon writes its own headers (content-length) into the object.
        return { ...req, headers: { ...visitor } };
      },
    },
    {
      method: 'DELETE',
      path: '/api/cart/1',
      // No content-type on a request without a body: autocannon then leaves the request unfinished.
      setupRequest: (req, context) => {
        const { 'content-type': _none, ...headers } = (context as Context).visitor ?? visitors[0]!;
        return { ...req, headers };
      },
      onResponse: (_status, _body, context) => {
        const { visitor } = context as Context;
        if (visitor && !free.includes(visitor)) free.push(visitor);
      },
    },
  ];
}

/**
 * The mixed browsing: six page views, two catalogue fetches by the island, and a visitor who
 * adds a copy and takes it out again (two requests), each visitor with a cart of its own.
 */
function mixedVisits(visitors: Record<string, string>[]): Visit[] {
  const free = [...visitors];
  const get =
    (path: string): Visit =>
    () => ({ steps: [{ method: 'GET', path }] });
  const addAndRemove: Visit = () => {
    const visitor = free.pop();
    if (!visitor) return undefined;
    const { 'content-type': _json, ...withoutBody } = visitor;
    const steps: Step[] = [
      { method: 'POST', path: '/api/cart', headers: visitor, body: JSON.stringify({ bookId: 1, quantity: 1 }) },
      { method: 'DELETE', path: '/api/cart/1', headers: withoutBody },
    ];
    return { steps, done: () => free.push(visitor) };
  };
  return [...['/', '/books', '/books/1', '/books/2', '/books', '/books/3'].map(get), get('/api/books'), get('/api/books'), addAndRemove];
}

/** Rounds of steady traffic at MIXED_RATE requests a second, after a warm-up. */
async function steadyRounds(server: Running, visits: Visit[], label: string): Promise<Summary> {
  say(label);
  // The add-and-remove visit makes two requests; the others one each.
  const visitsPerSecond = (MIXED_RATE * visits.length) / (visits.length + 1);
  const round = (seconds: number) =>
    steadyRound(server.baseUrl, server.pid, visits, { perSecond: visitsPerSecond, seconds, connections: 20 });
  await round(WARM_UP_SECONDS);
  const results: Round[] = [];
  for (let i = 0; i < ROUNDS; i += 1) results.push(await round(MIXED_SECONDS));
  return summarise(results);
}

type References = { bare: Summary; static: Summary };

/** The shop's anonymous /books page as a file, for the references to serve. */
async function booksFile(shop: Running, workDir: string): Promise<string> {
  const file = path.join(workDir, 'books.html');
  writeFileSync(file, Buffer.from(await (await fetch(`${shop.baseUrl}/books`)).arrayBuffer()));
  return file;
}

async function references(file: string): Promise<References> {
  const summaries: Record<string, Summary> = {};
  for (const mode of ['bare', 'static'] as const) {
    const server = await startReference(mode, file);
    try {
      summaries[mode] = await rounds(server, { path: '/books.html' }, `reference: ${mode}`);
    } finally {
      await server.stop();
    }
  }
  return { bare: summaries.bare!, static: summaries.static! };
}

/** The stylesheet the home page links. */
async function stylesheetOf(shop: Running): Promise<string> {
  const home = await (await fetch(`${shop.baseUrl}/`)).text();
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(home)?.[1];
  if (!asset) throw new Error('the home page links no stylesheet under /assets');
  return asset;
}

/** Every row of one setup, in the table's order; each measured in turns with express.static beside it. */
async function benchSetup(setup: string, shop: Running, rows: Row[], beside: Beside): Promise<void> {
  const row = (scenario: string, measured: Pick<Row, 'summary' | 'reference'>) => rows.push({ setup, scenario, ...measured });
  const paired = (target: Target, label: string) => pairedRounds(shop, target, `${setup}: ${label}`, beside);
  for (const page of PAGES) row(anonymous(page), await paired({ path: page }, `GET ${page}`));
  const cookieOnly = { cookie: (await visitorWithCart(shop.baseUrl)).cookie! };
  for (const page of PAGES) row(withCart(page), await paired({ path: page, headers: cookieOnly }, `GET ${page} with a session`));
  row('GET /api/books', await paired({ path: '/api/books' }, 'GET /api/books'));
  const visitors = await Promise.all(Array.from({ length: VISITORS }, () => visitorWithCart(shop.baseUrl)));
  row(CART_API, await paired({ path: '/api/cart', requests: cartRequests(visitors) }, 'POST /api/cart'));
  row(MIXED, { summary: await steadyRounds(shop, mixedVisits(visitors), `${setup}: mixed`) });
  const asset = await stylesheetOf(shop);
  row(`GET ${asset}`, await paired({ path: asset }, `GET ${asset}`));
}

/** Anonymous /books from a second shop with logs off, placed beside the row with logs on. */
async function logsOffRow(setup: string, env: Record<string, string>, logFile: string, rows: Row[]): Promise<void> {
  say(`${setup}: starting the shop with LOG_LEVEL=warn`);
  const shop = await startShop({ ...env, LOG_LEVEL: 'warn' }, logFile);
  try {
    await sleep(START_UP_MS);
    const summary = await rounds(shop, { path: '/books' }, `${setup}: GET /books, logs off`);
    const beside = rows.findIndex((r) => r.setup === setup && r.scenario === anonymous('/books'));
    rows.splice(beside + 1, 0, { setup, scenario: LOGS_OFF, summary });
  } finally {
    await shop.stop();
  }
}

/** Resident memory of the shop's processes, in total and, when it runs several, each one's. */
function memoryOf(shop: Shop): string {
  const [primary = 0, ...workers] = processTree(shop.pid).map(rssMbOf);
  const total = workers.reduce((a, b) => a + b, primary);
  const parts = workers.length ? ` (primary ${primary.toFixed(0)}, workers ${workers.map((w) => w.toFixed(0)).join(' + ')})` : '';
  return `${total.toFixed(0)} MB${parts}`;
}

const processesOf = (shop: Shop) => (shop.workers > 1 ? `a primary and ${shop.workers} workers` : 'one process');

interface Goal {
  scenario: string;
  setups: readonly string[];
  wants: string;
  judge(summary: Summary, expressStatic: Summary): { value: string; met: boolean };
}

function timesStatic(least: number): Pick<Goal, 'wants' | 'judge'> {
  return {
    wants: `≥ ${least}x express.static`,
    judge: (summary, expressStatic) => {
      const times = summary.rps.median / expressStatic.rps.median;
      return { value: `${times.toFixed(2)}x`, met: times >= least };
    },
  };
}

const MIXED_P99_MS = 15;
const BOTH = [MARIADB, SQLITE];
const GOALS: Goal[] = [
  ...PAGES.map((page) => ({ scenario: anonymous(page), setups: BOTH, ...timesStatic(1.5) })),
  ...PAGES.map((page) => ({ scenario: withCart(page), setups: BOTH, ...timesStatic(0.3) })),
  { scenario: CART_API, setups: [MARIADB], ...timesStatic(0.25) },
  {
    scenario: MIXED,
    setups: BOTH,
    wants: `p99 < ${MIXED_P99_MS} ms and no errors`,
    judge: (s) => ({ value: `p99 ${s.p99Ms.toFixed(1)} ms, ${errorsCell(s)} errors`, met: s.p99Ms < MIXED_P99_MS && s.errors === 0 }),
  },
];

/** One line per goal: its measured value on each setup it applies to, and whether it is met. */
function goalLines(
  rows: readonly Row[],
  expressStatic: Summary | undefined,
  saleDayRounds: readonly SaleDayRound[],
  sale: SaleBrowsing | undefined,
): string[] {
  const saleGoals = sale ? saleBrowsingGoals(sale) : [];
  let met = saleDayRounds.filter(saleDayHeld).length + saleGoals.filter((g) => g.met).length;
  let judged = saleDayRounds.length + saleGoals.length;
  // Only a sale was run: the other goals were not measured.
  const lines = (onlyMariaDb ? [] : GOALS).map((goal) => {
    const results = goal.setups.map((setup) => {
      const row = rows.find((r) => r.setup === setup && r.scenario === goal.scenario);
      if (!row || !expressStatic) return `${setup}: not measured`;
      const verdict = goal.judge(row.summary, row.reference ?? expressStatic);
      judged += 1;
      if (verdict.met) met += 1;
      return `${setup} ${verdict.value}, ${verdict.met ? 'met' : 'NOT MET'}`;
    });
    return `- ${goal.scenario}: ${goal.wants}. ${results.join('; ')}`;
  });
  const saleDayLines = saleDayRounds.map(
    (r) =>
      `- Sale day, ${r.scenario}: no 5xx, every start an intent or a 409/429 with a message, no intent left live, a code's uses exactly spent. ${saleDayHeld(r) ? 'met' : 'NOT MET'}`,
  );
  return [`## Goals: ${met} of ${judged} met`, '', ...lines, ...saleGoals.map((g) => g.line), ...saleDayLines];
}

interface SetupRun {
  name: string;
  processes: string;
}

function header(started: Date, minutes: number, stealPercent: number, load: string, setups: SetupRun[]): string[] {
  const cpu = cpus();
  const ran = setups.map((s) => `${s.name}: ${s.processes}`).join('; ');
  return [
    `# Benchmark${quick ? ' (quick check: one short round, not for comparison)' : ''}`,
    '',
    `${started.toISOString()} · ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'} · Node ${process.version} · Linux ${release()} · load average at start ${load} · CPU time taken by other guests (steal) over the run ${stealPercent.toFixed(0)}% · the run took ${minutes.toFixed(1)} min`,
    '',
    `The shop as an operator runs it: \`node ${startCommand().join(' ')}\` (the README's systemd unit), NODE_ENV=production,`,
    `LOG_LEVEL and WEB_CONCURRENCY unset. So it logs at info, one JSON line per request, its stdout and stderr appended to a file;`,
    `and it runs its default number of processes (one per core on MariaDB, one on SQLite), here ${ran}.`,
    `The row marked "logs off" is a second shop started the same way with LOG_LEVEL=warn; every other row has logs on.`,
    `autocannon with 10 connections in the same run on the same machine; ${ROUNDS} round(s) of ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up.`,
    `The mixed rows send ${MIXED_SECONDS} s of visits spread evenly at a steady rate over at most 20 connections, each latency counted`,
    `from when its request was due. The references serve the exact bytes of the shop's anonymous /books page: bare node:http`,
    `from memory, express.static from a file. Each shop row's × express.static is against express.static rounds taken in turns`,
    `with that row's own (the machine drifts more over a run than the differences measured); the reference rows are measured`,
    `once, before the first shop row. CPU ms/request is the user + system time of all the shop's processes (/proc/<pid>/stat)`,
    `over the requests answered. Errors: answers of 400 or more (non-2xx for autocannon) and connection errors over all rounds,`,
    `by kind where known.`,
  ];
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  const rows: Row[] = [];
  const notes: string[] = [];
  const setupsRun: SetupRun[] = [];
  const started = new Date();
  const ticksAtStart = machineTicks();
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  let refs: References | undefined;
  let saleDayRounds: SaleDayRound[] = [];
  let sale: SaleBrowsing | undefined;
  say('starting MariaDB and Redis');
  const services = await startServices();
  try {
    const setups: { name: string; slug: string; env: Record<string, string> }[] = [
      { name: MARIADB, slug: 'mariadb', env: { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl } },
      { name: SQLITE, slug: 'sqlite', env: {} },
    ];
    for (const { name, slug, env } of onlyMariaDb ? setups.slice(0, 1) : setups) {
      say(`${name}: starting the shop`);
      const logFile = path.join(workDir, `shop-${slug}.log`);
      const shop = await startShop(env, logFile);
      try {
        setupsRun.push({ name, processes: processesOf(shop) });
        await sleep(START_UP_MS);
        const afterStartUp = memoryOf(shop);
        // V8 gives back what start-up left behind once a process has been idle a few seconds.
        await sleep(REST_MS - START_UP_MS);
        notes.push(
          `${name}: idle RSS ${afterStartUp} ${START_UP_MS / 1000} s after start-up, ${memoryOf(shop)} after ${REST_MS / 1000} s at rest`,
        );
        if (!saleDayOnly) {
          const file = await booksFile(shop, workDir);
          if (!saleOnly) refs ??= await references(file);
          const expressStatic = await startReference('static', file);
          const beside = { server: expressStatic, path: `/${path.basename(file)}` };
          try {
            if (!saleOnly) await benchSetup(name, shop, rows, beside);
            // Last on this shop but sale day: it holds stock.
            if (name === MARIADB)
              sale = await saleBrowsing(shop, { ...expressStatic, path: beside.path }, services.databaseUrl, workDir, {
                rounds: ROUNDS,
                seconds: SECONDS,
                warmUpSeconds: WARM_UP_SECONDS,
                say,
              });
          } finally {
            await expressStatic.stop();
          }
        }
        // Last on this shop: it changes stock and takes orders.
        if (name === MARIADB && !saleOnly) {
          say(`${name}: sale day`);
          saleDayRounds = await saleDay(shop.baseUrl, services.databaseUrl, workDir);
        }
      } finally {
        await shop.stop();
      }
      if (onlyMariaDb) continue;
      const { lines, mb } = await logSize(logFile);
      notes.push(`${name}: the shop wrote ${lines} lines (${mb.toFixed(0)} MB) to its log file over its rows`);
      await logsOffRow(name, env, path.join(workDir, `shop-${slug}-logs-off.log`), rows);
    }
  } finally {
    await services.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  const ticksAtEnd = machineTicks();
  // On a virtual machine, CPU time other guests took makes every number of the run smaller and noisier.
  const stealPercent = (100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total);
  const minutes = (Date.now() - started.getTime()) / 60_000;
  const referenceRows = refs
    ? [
        { setup: 'reference', scenario: 'bare node:http, /books bytes', summary: refs.bare },
        { setup: 'reference', scenario: 'express.static, /books bytes', summary: refs.static },
      ]
    : [];
  const report = [
    ...header(started, minutes, stealPercent, load, setupsRun),
    '',
    markdownTable([...referenceRows, ...rows], refs ?? {}),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
    ...(sale ? [...saleBrowsingTable(sale), ''] : []),
    ...(saleDayRounds.length ? [...saleDayTable(saleDayRounds), ''] : []),
    ...goalLines(rows, refs?.static, saleDayRounds, sale),
    '',
  ].join('\n');
  process.stdout.write(report);
  mkdirSync(path.dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, report);
  say(`wrote ${OUTPUT}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
