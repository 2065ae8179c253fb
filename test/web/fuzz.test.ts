import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent } from '../helpers/accounts.ts';
import { buildTestShop, type TestShop } from '../helpers/app.ts';
import { CARDS } from '../helpers/checkout.ts';
import {
  RAW_BODIES,
  chance,
  deeplyNested,
  junkObject,
  junkString,
  junkValue,
  mutate,
  pick,
  seededRng,
  toJsonText,
  type Rng,
} from '../helpers/fuzz.ts';

// Every JSON route, fed at least 1,000 malformed requests from a seeded generator, by a
// visitor and by a signed-in customer who owns payment intents in every state (so the
// sandbox routes are reached past their ownership check). No answer may be a 5xx, every
// 4xx carries a message, and nothing that a malformed request must not change changes.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const PER_ROUTE = 1_000;
const CONCURRENCY = 8;

let shop: TestShop;
let server: http.Server;
let baseUrl: string;
let identities: Record<'visitor' | 'customer', { cookie: string; token: string }>;
let visitor: ApiBrowser;
let customer: ApiBrowser;
let other: ApiBrowser;

interface Intent {
  id: string;
  secret: string;
}
const mine: Record<'live' | 'action' | 'succeeded' | 'canceled', Intent> = {} as never;
let theirs: Intent;
let myOrderId: number;
let theirOrderId: number;

async function startPayment(buyer: ApiBrowser): Promise<Intent> {
  const add = await buyer.send('post', '/api/cart', { bookId: 1 });
  expect(add.status, JSON.stringify(add.body)).toBe(201);
  const res = await buyer.send('post', '/api/create-payment-intent-authenticated', {
    shippingInfo: { address: '214 Maple Street', city: 'Portland', zipCode: '97205' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.paymentIntentId, secret: res.body.clientSecret };
}

async function pay(buyer: ApiBrowser, intent: Intent, card: string) {
  const res = await buyer.send('post', '/api/sandbox/confirm', {
    paymentIntentId: intent.id,
    clientSecret: intent.secret,
    cardNumber: card,
    expiry: '12/34',
    cvc: '123',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function orderOf(intent: Intent): Promise<number> {
  return (await shop.db('orders').where({ stripePaymentIntentId: intent.id }).first()).id as number;
}

/** Everything a malformed request must leave as it was. */
async function snapshot() {
  const count = async (table: string) => Number(((await shop.db(table).count({ n: '*' }).first()) as { n: number | string }).n);
  return {
    stock: await shop.db('books').select('id', 'inStock').orderBy('id'),
    orders: await shop.db('orders').select('id', 'status').orderBy('id'),
    intents: await shop.db('sandbox_payment_intents').select('id', 'status').orderBy('id'),
    cartLines: await shop.db('cart_items').select('cartId', 'bookId', 'quantity').orderBy(['cartId', 'bookId']),
    users: await count('users'),
    checkouts: await count('checkouts'),
    holds: await count('stock_holds'),
    refunds: await count('sandbox_refunds'),
    messages: await count('contact_messages'),
    customer: (await customer.get('/api/auth/user')).body,
  };
}
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  shop = await buildTestShop();
  // One listening server with kept-alive connections, rather than a server per request.
  server = http.createServer(shop.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = () => supertest.agent(server);
  visitor = new ApiBrowser(browser());
  customer = new ApiBrowser(browser());
  other = new ApiBrowser(browser());
  await customer.signUp(newParent());
  await other.signUp(newParent());

  const paid = await startPayment(customer);
  await pay(customer, paid, CARDS.success);
  mine.succeeded = paid;
  mine.canceled = await startPayment(customer);
  mine.action = await startPayment(customer);
  await pay(customer, mine.action, CARDS.threeDSecure);
  mine.live = await startPayment(customer);
  // Each state set outright, whatever a newer checkout did to an older one.
  await shop.db('sandbox_payment_intents').where({ id: mine.canceled.id }).update({ status: 'canceled' });
  await shop.db('sandbox_payment_intents').where({ id: mine.action.id }).update({ status: 'requires_action' });
  await shop.db('sandbox_payment_intents').where({ id: mine.live.id }).update({ status: 'requires_payment_method' });

  const theirsPaid = await startPayment(other);
  await pay(other, theirsPaid, CARDS.success);
  theirs = await startPayment(other);
  myOrderId = await orderOf(mine.succeeded);
  theirOrderId = await orderOf(theirsPaid);
  await customer.send('post', '/api/cart', { bookId: 2, quantity: 2 });
  await visitor.send('post', '/api/cart', { bookId: 3 });
  identities = { visitor: await identityOf(visitor), customer: await identityOf(customer) };
  before = await snapshot();
}, 60_000);

afterAll(async () => {
  keepAlive.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await shop.close();
});

// ---- what each route is sent --------------------------------------------------------

const BAD_EMAILS = ['not-an-email', '', '@', 'a@', 'a b@c.d', 42, null, [], {}];
const BAD_ZIPS = ['', '1234', '123456', 'abcde', '97 205', 97205, null, [], {}, '٩٧٢٠٥'];
const BAD_QUANTITIES = [1.5, 'two', 10_001, 1e308, -1.5, '', [], {}, true, '1e3', '0x10'];
const ID_JUNK = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x1',
  '%20',
  '99999999999999999999',
  '2147483648',
  '%',
  '%zz',
  '%E0%A4%A',
  'null',
  '__proto__',
  '..%2F..%2Fetc',
];

// URLs and headers stay under Node's 16 KB header limit: past it Node itself answers 431
// before the shop sees the request, which tells nothing about the shop.
function inUrl(text: string): string {
  try {
    return encodeURIComponent(text.slice(0, 300));
  } catch {
    return '%ED%A0%80'; // a lone surrogate, percent-encoded
  }
}

const inHeader = (text: string) => text.replace(/[^\x20-\x7e]/g, '').slice(0, 1_000) || 'y';

function junkId(rng: Rng): string {
  return chance(rng, 0.6) ? pick(rng, ID_JUNK) : inUrl(junkString(rng));
}

/** A junk id that could never name a book in a cart ("1" and " 1 " could; "" is the whole cart). */
function notABook(rng: Rng): string {
  const id = junkId(rng);
  return id === '' || (/^(%20|\s)*[+-]?\d+(\.\d+)?(%20|\s)*$/.test(id) && Number(decodeURIComponent(id)) < 1_000) ? 'abc' : id;
}

function junkQuery(rng: Rng, keys: string[]): string {
  const parts: string[] = [];
  for (const key of [...keys, ...POLLUTING_QUERY]) {
    if (!chance(rng, 0.5)) continue;
    const value = chance(rng, 0.7) ? junkId(rng) : inUrl(JSON.stringify(junkValue(rng)) ?? '');
    parts.push(`${key}=${value}`);
    if (chance(rng, 0.2)) parts.push(`${key}=${value}`); // a repeated key reads as an array
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
const POLLUTING_QUERY = ['__proto__[x]', 'constructor[prototype][x]'];

const shipping = () => ({ address: '214 Maple Street', city: 'Portland', zipCode: '97205' });

function intentChoice(rng: Rng): { paymentIntentId: unknown; clientSecret: unknown } {
  const intents = [mine.live, mine.action, mine.succeeded, mine.canceled, theirs];
  const intent = pick(rng, intents);
  const r = rng();
  const clientSecret = r < 0.5 ? intent.secret : r < 0.7 ? pick(rng, intents).secret : r < 0.85 ? `${intent.secret}x` : junkString(rng);
  const paymentIntentId = chance(rng, 0.9) ? intent.id : pick(rng, ['pi_sbx_unknown', '', 'pi_' + 'x'.repeat(70), junkString(rng)]);
  return { paymentIntentId, clientSecret };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps a would-be-valid request malformed where a valid one would change something. */
function breakShipping(body: Record<string, unknown>, rng: Rng) {
  if (isObject(body.shippingInfo)) body.shippingInfo.zipCode = pick(rng, BAD_ZIPS);
}

interface Route {
  method: 'get' | 'post' | 'put' | 'delete';
  name: string;
  path: (rng: Rng) => string;
  /** A valid body to mutate; absent for routes that take none. */
  template?: () => Record<string, unknown>;
  guard?: (body: Record<string, unknown>, rng: Rng) => void;
  /** A well-formed request would change state that must not change: only the CSRF token is fuzzed. */
  tokenOnly?: boolean;
  /** Routes worth sending mostly as the customer. */
  customerShare?: number;
}

const ROUTES: Route[] = [
  { method: 'get', name: 'GET /api/session', path: (r) => `/api/session${junkQuery(r, ['x'])}` },
  { method: 'get', name: 'GET /api/books', path: (r) => `/api/books${junkQuery(r, ['exclude', 'limit', 'random'])}` },
  { method: 'get', name: 'GET /api/books/:id', path: (r) => `/api/books/${junkId(r)}${junkQuery(r, ['x'])}` },
  { method: 'get', name: 'GET /api/cart', path: (r) => `/api/cart${junkQuery(r, ['bookId'])}` },
  {
    method: 'post',
    name: 'POST /api/cart',
    path: () => '/api/cart',
    template: () => ({ bookId: 1, quantity: 1 }),
    guard: (b, r) => void (b.quantity = pick(r, BAD_QUANTITIES)),
  },
  {
    method: 'put',
    name: 'PUT /api/cart/:bookId',
    path: (r) => `/api/cart/${chance(r, 0.5) ? '2' : junkId(r)}`,
    template: () => ({ quantity: 1 }),
    guard: (b, r) => void (b.quantity = pick(r, BAD_QUANTITIES)),
  },
  { method: 'delete', name: 'DELETE /api/cart/:bookId', path: (r) => `/api/cart/${notABook(r)}` },
  { method: 'delete', name: 'DELETE /api/cart', path: () => '/api/cart', tokenOnly: true },
  { method: 'get', name: 'GET /api/auth/user', path: (r) => `/api/auth/user${junkQuery(r, ['id'])}` },
  {
    method: 'post',
    name: 'POST /api/auth/login',
    path: () => '/api/auth/login',
    template: () => ({ email: 'nobody@example.com', password: 'story-time-42' }),
  },
  {
    method: 'post',
    name: 'POST /api/auth/signup',
    path: () => '/api/auth/signup',
    template: () => ({ ...newParent() }),
    guard: (b, r) => void (b.email = pick(r, BAD_EMAILS)),
  },
  {
    method: 'post',
    name: 'POST /api/auth/reset-password',
    path: () => '/api/auth/reset-password',
    template: () => ({ email: 'nobody@example.com' }),
  },
  {
    method: 'put',
    name: 'PUT /api/auth/profile',
    path: () => '/api/auth/profile',
    template: () => ({ firstName: 'Amara', lastName: 'Osei' }),
    guard: (b, r) => void (b.firstName = pick(r, ['', null, 'x'.repeat(101), [], {}, 7])),
  },
  {
    method: 'put',
    name: 'PUT /api/auth/password',
    path: () => '/api/auth/password',
    template: () => ({ currentPassword: 'story-time-42', newPassword: 'a-new-story-43' }),
    guard: (b, r) => void (b.newPassword = pick(r, ['', 'short', null, [], {}, 12345678, 'x'.repeat(201)])),
  },
  { method: 'post', name: 'POST /api/auth/logout', path: () => '/api/auth/logout', tokenOnly: true },
  { method: 'post', name: 'POST /api/check-email', path: () => '/api/check-email', template: () => ({ email: 'nobody@example.com' }) },
  { method: 'post', name: 'POST /api/calculate-totals', path: () => '/api/calculate-totals', template: shipping },
  { method: 'post', name: 'POST /api/validate-address', path: () => '/api/validate-address', template: shipping },
  {
    method: 'post',
    name: 'POST /api/create-user-and-customer',
    path: () => '/api/create-user-and-customer',
    template: () => ({ ...newParent(), shippingInfo: shipping() }),
    guard: (b, r) => (chance(r, 0.5) ? breakShipping(b, r) : void (b.email = pick(r, BAD_EMAILS))),
  },
  {
    method: 'post',
    name: 'POST /api/create-payment-intent-with-customer',
    path: () => '/api/create-payment-intent-with-customer',
    template: () => ({ stripeCustomerId: 'cus_sbx_x', totalAmount: '27.48', shippingInfo: shipping() }),
    guard: (b, r) => breakShipping(b, r),
  },
  {
    method: 'post',
    name: 'POST /api/create-payment-intent-authenticated',
    path: () => '/api/create-payment-intent-authenticated',
    template: () => ({ amount: 2748, shippingInfo: shipping() }),
    guard: (b, r) => breakShipping(b, r),
    customerShare: 0.8,
  },
  {
    method: 'post',
    name: 'POST /api/complete-order',
    path: () => '/api/complete-order',
    template: () => ({ stripePaymentIntentId: mine.live.id, shippingInfo: shipping() }),
    guard: (b, r) => {
      if (typeof b.stripePaymentIntentId === 'string') b.stripePaymentIntentId = intentChoice(r).paymentIntentId;
    },
    customerShare: 0.8,
  },
  {
    method: 'post',
    name: 'POST /api/sandbox/confirm',
    path: () => '/api/sandbox/confirm',
    template: () => ({
      paymentIntentId: mine.live.id,
      clientSecret: mine.live.secret,
      cardNumber: CARDS.success,
      expiry: '12/34',
      cvc: '123',
    }),
    guard: (b, r) => {
      if ('paymentIntentId' in b) Object.assign(b, intentChoice(r));
      // The customer's open payment with its secret: the card field stays malformed, so the
      // request is refused before the card is tried (a declined card releases held copies).
      if (b.paymentIntentId === mine.live.id && b.clientSecret === mine.live.secret)
        b.cardNumber = pick(r, [4242, null, [], {}, true, '4'.repeat(41)]);
    },
    customerShare: 0.9,
  },
  {
    method: 'post',
    name: 'POST /api/sandbox/authenticate',
    path: () => '/api/sandbox/authenticate',
    template: () => ({ paymentIntentId: mine.action.id, clientSecret: mine.action.secret, succeed: true }),
    guard: (b, r) => {
      if ('paymentIntentId' in b) Object.assign(b, intentChoice(r));
      if (b.paymentIntentId === mine.action.id && b.clientSecret === mine.action.secret) b.succeed = pick(r, ['true', 1, null, [], {}]);
    },
    customerShare: 0.9,
  },
  {
    method: 'post',
    name: 'POST /api/webhooks/stripe',
    path: () => '/api/webhooks/stripe',
    template: () => ({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: { id: mine.live.id } } }),
  },
  {
    method: 'post',
    name: 'POST /api/contact',
    path: () => '/api/contact',
    template: () => ({
      firstName: 'Amara',
      lastName: 'Osei',
      email: 'amara@example.com',
      currentMember: 'no',
      subject: 'Hello',
      description: 'A question',
    }),
    guard: (b, r) => void (b.email = pick(r, BAD_EMAILS)),
  },
  { method: 'get', name: 'GET /api/orders', path: (r) => `/api/orders${junkQuery(r, ['page', 'userId'])}`, customerShare: 0.8 },
  { method: 'get', name: 'GET /api/orders/:id', path: (r) => `/api/orders/${orderIdChoice(r)}`, customerShare: 0.8 },
  { method: 'get', name: 'GET /api/orders/:id/breakdown', path: (r) => `/api/orders/${orderIdChoice(r)}/breakdown`, customerShare: 0.8 },
  {
    method: 'get',
    name: 'GET /api/orders/:id/stripe-status',
    path: (r) => `/api/orders/${orderIdChoice(r)}/stripe-status`,
    customerShare: 0.8,
  },
  { method: 'get', name: 'GET /api/system-status', path: (r) => `/api/system-status${junkQuery(r, ['x'])}` },
  {
    method: 'get',
    name: 'GET /api/orders/by-payment-intent/:id',
    path: (r) => `/api/orders/by-payment-intent/${paymentIntentChoice(r)}`,
    customerShare: 0.8,
  },
];

function paymentIntentChoice(rng: Rng): string {
  const r = rng();
  return r < 0.3 ? theirs.id : r < 0.45 ? mine.succeeded.id : junkId(rng);
}

function orderIdChoice(rng: Rng): string {
  const r = rng();
  return r < 0.3 ? String(theirOrderId) : r < 0.45 ? String(myOrderId) : junkId(rng);
}

interface Shot {
  who: 'visitor' | 'customer';
  method: Route['method'];
  path: string;
  token: string; // 'right', 'none', or the exact token to send
  type?: string;
  text?: string;
  headers?: Record<string, string>;
}

function makeShot(route: Route, rng: Rng): Shot {
  const who = chance(rng, route.customerShare ?? 0.5) ? 'customer' : 'visitor';
  const shot: Shot = { who, method: route.method, path: route.path(rng), token: 'right' };
  if (route.method !== 'get') {
    // Missing, stale or junk CSRF tokens: refused before any route sees the body.
    if (route.tokenOnly || chance(rng, 0.08)) shot.token = pick(rng, ['none', '', 'x', inHeader(junkString(rng))]);
  }
  if (route.name === 'POST /api/webhooks/stripe')
    shot.headers = {
      'stripe-signature': pick(rng, ['', 't=1,v1=abc', `t=${Date.now()},v1=${'0'.repeat(64)}`, 'v1=', inHeader(junkString(rng))]),
    };
  const r = rng();
  if (route.method === 'get') return shot;
  if (route.method === 'delete') {
    if (r < 0.3) Object.assign(shot, { type: 'application/json', text: toJsonText(rng, junkValue(rng)) });
    return shot;
  }
  if (!route.template || r < 0.2) {
    Object.assign(shot, { type: 'application/json', text: toJsonText(rng, chance(rng, 0.5) ? junkValue(rng) : junkObject(rng)) });
  } else if (r < 0.3) {
    Object.assign(shot, pick(rng, RAW_BODIES));
  } else if (r < 0.33) {
    Object.assign(shot, { type: 'application/json', text: JSON.stringify(deeplyNested(1_500)) });
  } else {
    const body = mutate(rng, route.template());
    route.guard?.(body, rng);
    Object.assign(shot, { type: 'application/json', text: toJsonText(rng, body) });
  }
  return shot;
}

interface Answer {
  status: number;
  body: { message?: unknown } | undefined;
}

// The requests come from an address of their own on the loopback range: per-address limits
// (sign-in, e-mail checks) live in a Redis that other test files share, and a thousand
// malformed sign-ins from 127.0.0.1 would use up their allowance too.
const clientAddress = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress: clientAddress });

/** Sent over kept-alive connections with a browser's cookie and token, nothing else. */
function fire(shot: Shot): Promise<Answer> {
  const who = identities[shot.who];
  const headers: Record<string, string> = { cookie: who.cookie, accept: 'application/json', ...shot.headers };
  if (shot.token === 'right') headers['x-csrf-token'] = who.token;
  else if (shot.token !== 'none') headers['x-csrf-token'] = shot.token;
  const body = shot.text === undefined ? undefined : Buffer.from(shot.text);
  if (body) Object.assign(headers, { 'content-type': shot.type!, 'content-length': String(body.length) });
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${shot.path}`, { method: shot.method.toUpperCase(), headers, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        let parsed: Answer['body'];
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'];
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function identityOf(browser: ApiBrowser) {
  await browser.refreshToken();
  const res = await browser.get('/api/session');
  return { cookie: String(res.request.cookies ?? ''), token: browser.token };
}

async function runAll<T, R>(items: T[], worker: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await worker(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

interface Run {
  answers: Array<{ shot: Shot; res: Answer }>;
  statuses: Map<number, number>;
}
const runs = new Map<string, Promise<Run>>();

/**
 * A route's thousand seeded requests and how it answered, sent once whichever test asks first,
 * so that each test stands on its own (run alone, filtered or shuffled) without sending them twice.
 */
function fuzzed(name: string): Promise<Run> {
  const i = ROUTES.findIndex((route) => route.name === name);
  const route = ROUTES[i]!;
  let run = runs.get(name);
  if (!run) {
    run = (async () => {
      const rng = seededRng(SEED + i * 7919);
      const shots = Array.from({ length: PER_ROUTE }, () => makeShot(route, rng));
      const answers = await runAll(shots, async (shot) => ({ shot, res: await fire(shot) }));
      const statuses = new Map<number, number>();
      for (const { res } of answers) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return { answers, statuses };
    })();
    runs.set(name, run);
  }
  return run;
}

describe(`fuzzing every JSON route (seed ${SEED})`, () => {
  it.each(ROUTES.map((route) => [route.name] as const))(
    '%s: 1,000 malformed requests, no 5xx, every 4xx with a message',
    async (name) => {
      const { answers } = await fuzzed(name);
      const wrong: string[] = [];
      for (const { shot, res } of answers) {
        const readable =
          res.status < 400 ||
          (typeof res.body?.message === 'string' && res.body.message.length > 0 && !/at .+\.ts:\d+/.test(res.body.message));
        if (res.status >= 500 || !readable)
          wrong.push(
            `${shot.who} ${shot.method.toUpperCase()} ${shot.path} ${shot.text?.slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
          );
      }
      expect(answers).toHaveLength(PER_ROUTE);
      expect(wrong.slice(0, 5), `${wrong.length} bad answers`).toEqual([]);
      expect(await snapshot(), 'nothing a malformed request must not change').toEqual(before);
      // A thousand requests per route: on a loaded machine that outlasts the default timeout.
    },
    120_000,
  );

  it('reached the sandbox routes past their ownership check', async () => {
    for (const name of ['POST /api/sandbox/confirm', 'POST /api/sandbox/authenticate']) {
      const { statuses } = await fuzzed(name);
      expect(statuses.get(200), name).toBeGreaterThan(0); // the customer's own intents, answered as they are
      expect(statuses.get(404), name).toBeGreaterThan(0); // wrong secrets, someone else's intents
      expect(statuses.get(400), name).toBeGreaterThan(0); // malformed bodies
    }
    expect((await fuzzed('POST /api/sandbox/confirm')).statuses.get(409)).toBeGreaterThan(0); // the canceled intent
  }, 240_000);

  it('changed nothing a malformed request must not change', async () => {
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.customer).toMatchObject({ id: expect.any(Number) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
