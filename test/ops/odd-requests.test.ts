// No request can bring the shop down. The production process (the README's unit, compiled
// server) gets odd request targets on every path family, written byte for byte on raw sockets
// so that no client tidies them first: dot segments, broken and double encodings, raw control
// bytes, backslashes, very long paths, absolute-form and `*`. Any status is a fine answer, and
// so is a closed connection; dying, a 5xx other than 503, and showing the server's inside are not.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startProductionServer, type ProductionServer } from '../helpers/production-server.ts';

/** Where the odd parts go: the static prefixes and every route family, each ending in '/'. */
const PREFIXES = [
  // Files: the build's, public/'s, uploaded covers.
  '/assets/',
  '/covers/',
  '/covers/moon-garden.svg/',
  '/images/',
  '/uploads/covers/',
  // Pages.
  '/',
  '/books/',
  '/books/1/',
  '/books/1/notify/',
  '/cart/',
  '/cart/items/',
  '/login/',
  '/signup/',
  '/checkout/',
  '/checkout/discount/',
  '/order-confirmation/',
  '/dashboard/',
  '/dashboard/orders/',
  '/contact/',
  '/about/',
  '/reset-password/',
  '/reset-password/0123456789abcdef/',
  '/notify/',
  '/notify/unsubscribe/',
  '/admin/',
  '/admin/orders/',
  '/admin/orders/1/',
  '/admin/books/',
  '/admin/books/1/',
  '/admin/inbox/',
  '/admin/discounts/',
  '/admin/exports/',
  '/admin/two-factor/',
  '/admin/settings/',
  // The API.
  '/api/',
  '/api/books/',
  '/api/cart/',
  '/api/cart/items/',
  '/api/session/',
  '/api/auth/',
  '/api/orders/',
  '/api/orders/by-payment-intent/',
  '/api/webhooks/stripe/',
  '/api/sandbox/',
  // For the operator and crawlers.
  '/healthz/',
  '/readyz/',
  '/robots.txt/',
  '/sitemap.xml/',
];

/** What goes after a prefix. */
const DOT_SEGMENTS = [
  '.',
  '..',
  './',
  '../',
  '.%2e',
  '%2e',
  '%2E',
  '%2e%2e',
  '%2E%2E',
  '..%2f',
  '..%2F',
  '%2e%2e%2f',
  '%2e%2e%5c',
  '..%5c',
  '..;/',
  '....//',
  'a/../..',
  '../../../../etc/passwd',
  '..%2f..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/package.json',
  '.env',
  '.git/config',
];
const ENCODINGS = [
  '%',
  '%%',
  '%2',
  '%zz',
  '%00',
  'a%00.svg',
  '%c0%ae',
  '%c0%ae%c0%ae/',
  '%c0%af',
  '%ff',
  '%fe%ff',
  '%252e',
  '%252e%252e%252f',
  '%u002e',
  '%e2%80%ae',
  '%0d%0aSet-Cookie:%20a=1',
];
const RAW_BYTES = ['\x00', 'a\x00b', '\x01', '\x1b[31m', '\x7f', '\t', '\xff', '\xc0\xae'];
const SLASHES = ['\\', '\\..\\..\\', '..\\', '/', '//', '//..', '///x', '/..//..//'];
const LONG = ['x'.repeat(8 * 1024), 'x'.repeat(64 * 1024), '../'.repeat(3000)];
const QUERIES = ['?a[]=1&a[]=2', '?a[b][c]=1', '?[]=', '?__proto__[x]=1', '?q=%', '?q=%zz', '?id=1&id=2', `?${'a=1&'.repeat(2000)}`];
const FORMS = [...DOT_SEGMENTS, ...ENCODINGS, ...RAW_BYTES, ...SLASHES, ...LONG, ...QUERIES];

/** Sent in absolute-form too (`GET http://x/assets/.. HTTP/1.1`), which a proxy may pass on. */
const ABSOLUTE_FORMS = ['.', '..', './', '%2e%2e', '..%2f', '%2e%2e%5c'];

/** Request targets that are not a path under a prefix. */
const WHOLE_TARGETS = ['*', '.', '..', 'assets/.', '%2fassets/.', '//assets/.', 'http://x', 'http://x/..', 'http://x:99999/'];

const METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'];
const CONCURRENCY = 8;
// A hang is not an answer the test waits for: the request is counted and dropped.
const ANSWER_TIMEOUT_MS = 5000;
// /healthz gets longer: a slow answer under a loaded test machine is not a death.
const HEALTH_TIMEOUT_MS = 10_000;

/** Signs of the server's inside in an answer: a stack frame, where it runs from, a file read from outside public/. */
const STACK_FRAME = / {4}at \S[^\n]*:\d+:\d+/;
const LEAK_MARKERS = [ROOT, '/work/', 'node_modules', 'dist-server', 'root:x:0:', '"name": "little-lantern-books"'];

interface OddRequest {
  method: string;
  target: string;
}

interface Answer {
  request: OddRequest;
  /** The status line's code, or how the connection ended without one. */
  status: number | 'closed' | 'timeout';
  text: string;
}

interface Batch {
  name: string;
  requests: OddRequest[];
}

/** One batch per prefix, then absolute-form and the whole targets: a death is told by its batch. */
function batches(): Batch[] {
  const eachMethod = (targets: string[]) => targets.flatMap((target) => METHODS.map((method) => ({ method, target })));
  return [
    ...PREFIXES.map((prefix) => ({ name: prefix, requests: eachMethod(FORMS.map((form) => prefix + form)) })),
    { name: 'absolute-form', requests: eachMethod(PREFIXES.flatMap((prefix) => ABSOLUTE_FORMS.map((form) => `http://x${prefix}${form}`))) },
    { name: 'whole targets', requests: eachMethod(WHOLE_TARGETS) },
  ];
}

/** The request's bytes as written: latin1 keeps every raw byte of the target as it is. */
function wire({ method, target }: OddRequest, port: number): Buffer {
  const body = method === 'POST' ? 'Content-Length: 0\r\n' : '';
  return Buffer.from(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${body}\r\n`, 'latin1');
}

function send(port: number, request: OddRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const finish = (timedOut = false) => {
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const code = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ request, status: code ? Number(code) : timedOut ? 'timeout' : 'closed', text });
    };
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => finish(true));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset (the server refusing a 64 KB target mid-write) ends in 'close' as well.
    socket.on('error', () => {});
    socket.on('close', () => finish());
    socket.write(wire(request, port));
  });
}

/** Sends `requests` in order over CONCURRENCY sockets at a time, until they are done or `stop()` says so. */
async function sendAll(port: number, requests: OddRequest[], stop: () => boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length && !stop()) {
      const i = next++;
      answers[i] = await send(port, requests[i]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return answers.filter(Boolean);
}

function shown({ method, target }: OddRequest): string {
  const printable = target.replace(/[^\x21-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `${method} ${printable.length > 100 ? `${printable.slice(0, 60)}… (${target.length} characters)` : printable}`;
}

interface Watched {
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

/** A shop process that exits is noticed at once, so the batch stops sending into a closed port. */
function watched(shop: ProductionServer): Watched {
  const state: Watched = {};
  void shop.exited.then((exit) => (state.exit = exit));
  return state;
}

/** The same process (same pid) is alive and answers GET /healthz with 200. */
async function stillAnswers(shop: ProductionServer, state: Watched): Promise<boolean> {
  if (state.exit) return false;
  try {
    process.kill(shop.pid, 0);
    const res = await fetch(`${shop.baseUrl}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    return res.status === 200 && !state.exit;
  } catch {
    return false;
  }
}

/**
 * Which of `suspects` (sent with others at once, left without an answer) stops the shop:
 * replayed one by one on a fresh process, in the order they were sent.
 */
async function killerAmong(suspects: OddRequest[]): Promise<OddRequest | undefined> {
  const fresh = await startProductionServer();
  const state = watched(fresh);
  try {
    for (const request of suspects) {
      await send(fresh.port, request);
      if (!(await stillAnswers(fresh, state))) return request;
    }
    return undefined;
  } finally {
    await fresh.cleanUp();
  }
}

async function deathReport(shop: ProductionServer, state: Watched, batch: Batch, answers: Answer[]): Promise<string> {
  const unanswered = answers.filter((a) => typeof a.status !== 'number').map((a) => a.request);
  // A death after its answer was sent leaves no unanswered request: then any of the batch may be it.
  const killer = await killerAmong(unanswered.length ? unanswered : batch.requests);
  const how = state.exit
    ? `pid ${shop.pid} exited with code ${state.exit.code}, signal ${state.exit.signal}`
    : `pid ${shop.pid} stopped answering /healthz`;
  const after = killer
    ? `after ${shown(killer)}`
    : `during the batch ${batch.name} (not again when replayed one by one); left without an answer: ${unanswered.slice(0, 20).map(shown).join(', ')}`;
  return `the shop stopped answering ${after} (${how})\nits last output:\n${shop.output().slice(-3000)}`;
}

function listed(answers: Answer[]): string {
  const lines = answers.slice(0, 40).map((a) => `  ${a.status} ${shown(a.request)}`);
  if (answers.length > 40) lines.push(`  … and ${answers.length - 40} more`);
  return lines.join('\n');
}

let shop: ProductionServer;
beforeAll(async () => {
  shop = await startProductionServer();
}, 60_000);
afterAll(async () => {
  await shop?.cleanUp();
});

describe('odd requests to the production process', () => {
  it('never stop it, never get a 5xx but 503, never show its stack or its files', async () => {
    const state = watched(shop);
    expect(await stillAnswers(shop, state)).toBe(true);
    const answers: Answer[] = [];
    for (const batch of batches()) {
      const batchAnswers = await sendAll(shop.port, batch.requests, () => state.exit !== undefined);
      answers.push(...batchAnswers);
      if (!(await stillAnswers(shop, state))) throw new Error(await deathReport(shop, state, batch, batchAnswers));
    }
    expect(await stillAnswers(shop, state), 'the same process answers GET /healthz at the end').toBe(true);

    const serverErrors = answers.filter((a) => typeof a.status === 'number' && a.status >= 500 && a.status !== 503);
    expect.soft(serverErrors.length, `${serverErrors.length} answers were a 5xx other than 503:\n${listed(serverErrors)}`).toBe(0);
    const leaks = answers.filter((a) => STACK_FRAME.test(a.text) || LEAK_MARKERS.some((marker) => a.text.includes(marker)));
    expect.soft(leaks.length, `${leaks.length} answers showed a stack frame or the server's files:\n${listed(leaks)}`).toBe(0);
  }, 300_000);
});

// A stand-in for a fault outside every request (a timer, a library's callback): loaded before
// the shop, it throws or leaves a promise rejected when the test signals the process.
const FAULT = `
process.on('SIGUSR2', () => { throw new Error('a fault nobody caught'); });
process.on('SIGWINCH', () => { void Promise.reject(new Error('a fault nobody caught')); });
`;

describe('a fault nothing caught', () => {
  it.each([
    ['thrown', 'SIGUSR2', 'uncaught exception; exiting'],
    ['rejected', 'SIGWINCH', 'unhandled promise rejection; exiting'],
  ] as const)(
    '%s: is logged at fatal with its stack, and the process exits 1',
    async (_kind, signal, msg) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'shop-fault-'));
      const fault = path.join(dir, 'fault.mjs');
      await writeFile(fault, FAULT);
      const faulty = await startProductionServer({
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${pathToFileURL(fault).href}`].filter(Boolean).join(' '),
      });
      try {
        process.kill(faulty.pid, signal);
        expect(await faulty.exited).toEqual({ code: 1, signal: null });
        const fatal = faulty
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string; stack: string } })
          .find((line) => line.level === 60);
        expect(fatal).toMatchObject({ msg, err: { message: 'a fault nobody caught' } });
        expect(fatal?.err?.stack).toMatch(/ {4}at /);
      } finally {
        await faulty.cleanUp();
        await rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
