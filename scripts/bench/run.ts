// npm run bench [-- --quick]: the shop in production mode on MariaDB + Redis and on the embedded
// defaults, under autocannon, beside two references serving the same bytes, measured in the
// same run. Writes bench/results.md (--quick: one short round, to bench/results-quick.md).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { measure, signInsAtRate, type Parent, type SignIns, type Target } from './load.ts';
import { startReference, startServices, startShop, type Running } from './processes.ts';
import { machineTicks, rssMbOf } from './proc.ts';
import { steadyRound, type Step, type Visit } from './steady.ts';
import { byKind, markdownTable, median, percentile, summarise, type Round, type Row, type Summary } from './stats.ts';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const SECONDS = quick ? 2 : 5;
const WARM_UP_SECONDS = quick ? 1 : 2;
const MIXED_SECONDS = quick ? 3 : 10;
const MIXED_RATE = 300;
const SIGN_INS_PER_SECOND = 20;
// More rounds for the static file beside sign-ins: its goal is a ratio of two noisy numbers.
const PAIRED_ROUNDS = quick ? 1 : 5;
const SIGN_IN_LEAD_MS = quick ? 200 : 1000;
const REST_MS = quick ? 5000 : 20_000;
const OUTPUT = path.resolve('bench', quick ? 'results-quick.md' : 'results.md');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function rounds(server: Running, target: Target, label: string, seconds = SECONDS): Promise<Summary> {
  say(label);
  await measure(server.baseUrl, server.pid, target, WARM_UP_SECONDS);
  const results: Round[] = [];
  for (let i = 0; i < ROUNDS; i += 1) results.push(await measure(server.baseUrl, server.pid, target, seconds));
  return summarise(results);
}

/** A visitor as the cart island sees one: a session cookie holding a cart item, and its CSRF token. */
async function visitorWithCart(baseUrl: string): Promise<Record<string, string>> {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const session = await fetch(`${baseUrl}/api/session`);
  keep(session);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const headers = () => ({
    cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': csrfToken,
    'content-type': 'application/json',
  });
  const added = await fetch(`${baseUrl}/api/cart`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ bookId: 3, quantity: 1 }),
  });
  keep(added);
  if (added.status !== 201) throw new Error(`could not fill a cart: ${added.status} ${await added.text()}`);
  return headers();
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

/** A parent with an account, signing in from an address of their own (the shop trusts one proxy hop). */
async function signedUpParent(baseUrl: string, n: number): Promise<Parent> {
  const parent = { email: `bench.${Date.now()}.${n}@example.com`, password: 'story-time-42', firstName: 'Amara', lastName: 'Osei' };
  const address = `203.0.113.${n + 1}`;
  const session = await fetch(`${baseUrl}/api/session`, { headers: { 'x-forwarded-for': address } });
  const cookie = session.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(parent),
  });
  if (res.status !== 201) throw new Error(`could not sign up: ${res.status} ${await res.text()}`);
  return { email: parent.email, password: parent.password, address };
}

async function references(shop: Running, workDir: string): Promise<{ bare: Summary; static: Summary }> {
  const file = path.join(workDir, 'books.html');
  writeFileSync(file, Buffer.from(await (await fetch(`${shop.baseUrl}/books`)).arrayBuffer()));
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

async function benchSetup(setup: string, shop: Running, rows: Row[], notes: string[]): Promise<void> {
  const row = (scenario: string, summary: Summary) => rows.push({ setup, scenario, summary });
  const session = await visitorWithCart(shop.baseUrl);
  const cookieOnly = { cookie: session.cookie! };
  for (const page of ['/', '/books', '/books/1'])
    row(`GET ${page}, anonymous`, await rounds(shop, { path: page }, `${setup}: GET ${page}`));
  for (const page of ['/', '/books', '/books/1'])
    row(
      `GET ${page}, session with a cart item`,
      await rounds(shop, { path: page, headers: cookieOnly }, `${setup}: GET ${page} with a session`),
    );
  row('GET /api/books', await rounds(shop, { path: '/api/books' }, `${setup}: GET /api/books`));
  const visitors = await Promise.all(Array.from({ length: VISITORS }, () => visitorWithCart(shop.baseUrl)));
  const cart = cartRequests(visitors);
  row(
    'POST /api/cart + DELETE /api/cart/1 (session, CSRF)',
    await rounds(shop, { path: '/api/cart', requests: cart }, `${setup}: POST /api/cart`),
  );

  row(
    `mixed at ${MIXED_RATE} req/s: 60% pages, 20% /api/books, 20% cart API`,
    await steadyRounds(shop, mixedVisits(visitors), `${setup}: mixed`),
  );

  const home = await (await fetch(`${shop.baseUrl}/`)).text();
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(home)?.[1];
  if (!asset) throw new Error('the home page links no stylesheet under /assets');
  // As on a busy evening: a different parent each time, each from home.
  const parents = await Promise.all(Array.from({ length: SIGN_INS_PER_SECOND }, (_, n) => signedUpParent(shop.baseUrl, n)));
  const { alone, loaded, ratios, signIns } = await staticBesideSignIns(shop, { path: asset }, parents, setup);
  row(`GET ${asset}`, alone);
  row(`GET ${asset} while ${SIGN_INS_PER_SECOND} sign-ins/s run`, loaded);
  const failed = Object.values(signIns.failures).reduce((a, b) => a + b, 0);
  const [fastest, slowest] = [Math.min(...ratios), Math.max(...ratios)].map((r) => r.toFixed(2));
  notes.push(
    `${setup}: static assets while ${SIGN_INS_PER_SECOND} sign-ins/s run: ${median(ratios).toFixed(2)}x their throughput without (median of ${ratios.length} paired rounds, ${fastest}-${slowest}x; ${signIns.durationsMs.length} sign-ins by ${parents.length} parents, each ${percentile(signIns.durationsMs, 50).toFixed(0)} ms at the median and ${percentile(signIns.durationsMs, 99).toFixed(0)} ms at p99; ${failed} failed${failed ? `: ${byKind(signIns.failures)}` : ''})`,
  );
}

/**
 * A static file alone and while sign-ins run, in turns: a round without, then a round with.
 * The machine's speed drifts over a run (other tenants, its own clock), and taken in turns
 * both sides of each ratio see the same drift.
 */
async function staticBesideSignIns(
  shop: Running,
  target: Target,
  parents: Parent[],
  setup: string,
): Promise<{ alone: Summary; loaded: Summary; ratios: number[]; signIns: SignIns }> {
  say(`${setup}: static alone and while signing in, in turns`);
  await measure(shop.baseUrl, shop.pid, target, WARM_UP_SECONDS);
  const alone: Round[] = [];
  const loaded: Round[] = [];
  const signIns: SignIns = { durationsMs: [], failures: {} };
  for (let i = 0; i < PAIRED_ROUNDS; i += 1) {
    alone.push(await measure(shop.baseUrl, shop.pid, target, SECONDS));
    const stopSignIns = signInsAtRate(shop.baseUrl, parents, SIGN_INS_PER_SECOND);
    // The round starts once sign-ins are arriving steadily.
    await sleep(SIGN_IN_LEAD_MS);
    loaded.push(await measure(shop.baseUrl, shop.pid, target, SECONDS));
    const { durationsMs, failures } = await stopSignIns();
    signIns.durationsMs.push(...durationsMs);
    for (const [kind, n] of Object.entries(failures)) signIns.failures[kind] = (signIns.failures[kind] ?? 0) + n;
  }
  const ratios = loaded.map((round, i) => round.requestsPerSecond / alone[i]!.requestsPerSecond);
  return { alone: summarise(alone), loaded: summarise(loaded), ratios, signIns };
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  const rows: Row[] = [];
  const notes: string[] = [];
  const started = new Date();
  const ticksAtStart = machineTicks();
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  let refs: { bare: Summary; static: Summary } | undefined;
  say('starting MariaDB and Redis');
  const services = await startServices();
  try {
    const setups: { name: string; env: Record<string, string> }[] = [
      { name: 'MariaDB + Redis', env: { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl } },
      { name: 'SQLite + SQL sessions', env: {} },
    ];
    for (const { name, env } of setups) {
      say(`${name}: starting the shop`);
      const shop = await startShop(env);
      try {
        await sleep(3000);
        const afterStartUp = rssMbOf(shop.pid);
        // V8 gives back what start-up left behind once a process has been idle a few seconds.
        await sleep(REST_MS - 3000);
        notes.push(
          `${name}: idle RSS ${afterStartUp.toFixed(0)} MB 3 s after start-up, ${rssMbOf(shop.pid).toFixed(0)} MB after ${REST_MS / 1000} s at rest`,
        );
        refs ??= await references(shop, workDir);
        await benchSetup(name, shop, rows, notes);
      } finally {
        await shop.stop();
      }
    }
  } finally {
    await services.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  const cpu = cpus();
  const ticksAtEnd = machineTicks();
  // On a virtual machine, CPU time other guests took makes every number of the run smaller and noisier.
  const stealPercent = (100 * (ticksAtEnd.steal - ticksAtStart.steal)) / (ticksAtEnd.total - ticksAtStart.total);
  const report = [
    `# Benchmark${quick ? ' (quick check: one short round, not for comparison)' : ''}`,
    '',
    `${started.toISOString()} · ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'} · Node ${process.version} · Linux ${release()} · load average at start ${load} · CPU time taken by other guests (steal) over the run ${stealPercent.toFixed(0)}%`,
    '',
    `The shop in production mode (compiled server, one process, WEB_CONCURRENCY=1), autocannon with 10 connections in the same`,
    `run on the same machine; ${ROUNDS} round(s) of ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up. The mixed rows send ${MIXED_SECONDS} s of`,
    `visits spread evenly at a steady rate over at most 20 connections, each latency counted from when its request was due.`,
    `The stylesheet is measured alone and while sign-ins run in ${PAIRED_ROUNDS} pairs of rounds, taken in turns.`,
    `The references serve the exact bytes of the shop's anonymous /books page: bare node:http from memory, express.static from a file.`,
    `CPU ms/request is the server process's user + system time (/proc/<pid>/stat) over the requests answered. Errors: answers of 400`,
    `or more (non-2xx for autocannon) and connection errors over all rounds, by kind where known.`,
    '',
    markdownTable(
      [
        ...(refs
          ? [
              { setup: 'reference', scenario: 'bare node:http, /books bytes', summary: refs.bare },
              { setup: 'reference', scenario: 'express.static, /books bytes', summary: refs.static },
            ]
          : []),
        ...rows,
      ],
      refs ?? {},
    ),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  mkdirSync(path.dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, report);
  say(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
