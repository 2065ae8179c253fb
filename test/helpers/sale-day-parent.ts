// A parent on sale day, as a browser with the card island talks to a running shop: a cookie
// jar, the current CSRF token and an address of their own (the shop sits behind one trusted
// proxy, which writes X-Forwarded-For). Plain fetch and no test framework, so the race tests
// and `npm run bench` drive the shop the same way.
import { randomBytes } from 'node:crypto';

export const SALE_SHIPPING = { address: '214 Maple Street', city: 'Portland', zipCode: '97205' };
export const SALE_CARD = '4242 4242 4242 4242';
const PASSWORD = 'story-time-42';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface Intent {
  paymentIntentId: string;
  clientSecret: string;
}

export class SaleParent {
  readonly email = `sale.${randomBytes(6).toString('hex')}@example.com`;
  intent: Intent | undefined;
  private readonly cookies = new Map<string, string>();
  private token = '';

  constructor(
    readonly baseUrl: string,
    readonly address: string,
  ) {}

  async send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object, address = this.address): Promise<Answer> {
    if (!this.token && method !== 'GET' && this.cookies.size) await this.refreshToken();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-forwarded-for': address,
        // As a browser says of a request its own page makes: a visitor's first change needs it.
        'sec-fetch-site': 'same-origin',
        ...(method === 'GET' ? {} : { 'x-csrf-token': this.token }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      this.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const text = await res.text();
    const parsed = (res.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as Record<string, unknown>) : {};
    // Signing up starts a new session with a new token.
    if (typeof parsed.csrfToken === 'string') this.token = parsed.csrfToken;
    return { status: res.status, body: parsed };
  }

  async refreshToken(): Promise<void> {
    const { body } = await this.send('GET', '/api/session');
    this.token = String(body.csrfToken);
  }

  async signUp(): Promise<void> {
    const { status, body } = await this.send('POST', '/api/auth/signup', {
      email: this.email,
      password: PASSWORD,
      firstName: 'Amara',
      lastName: 'Osei',
    });
    if (status >= 300) throw new Error(`sign-up answered ${status}: ${JSON.stringify(body)}`);
  }

  async add(bookId: number, quantity: number): Promise<void> {
    const { status, body } = await this.send('POST', '/api/cart', { bookId, quantity });
    if (status !== 201) throw new Error(`adding book ${bookId} answered ${status}: ${JSON.stringify(body)}`);
  }

  async applyCode(code: string): Promise<void> {
    const { status } = await this.send('POST', '/checkout/discount', { code });
    if (status !== 303) throw new Error(`applying ${code} answered ${status}`);
  }

  /** The checkout's totals for the sale's address, as the card island asks before Pay. */
  async totals(): Promise<Answer> {
    return this.send('POST', '/api/calculate-totals', SALE_SHIPPING);
  }

  /** A guest's Pay: the account made at checkout, then the payment started for its customer. */
  async payAsGuest(): Promise<{ account: Answer; start: Answer }> {
    const account = await this.send('POST', '/api/create-user-and-customer', {
      email: this.email,
      password: PASSWORD,
      firstName: 'Amara',
      lastName: 'Osei',
      shippingInfo: SALE_SHIPPING,
    });
    if (account.status !== 201) return { account, start: account };
    const start = await this.send('POST', '/api/create-payment-intent-with-customer', {
      stripeCustomerId: account.body.stripeCustomerId,
      shippingInfo: SALE_SHIPPING,
    });
    if (start.status === 200) this.intent = start.body as unknown as Intent;
    return { account, start };
  }

  /** Pay, as the card island presses it; keeps the intent when one is given. */
  async startPayment(address = this.address): Promise<Answer> {
    const answer = await this.send('POST', '/api/create-payment-intent-authenticated', { shippingInfo: SALE_SHIPPING }, address);
    if (answer.status === 200) this.intent = answer.body as unknown as Intent;
    return answer;
  }

  /** The sandbox's succeeding card, then the order's completion: true when both went through. */
  async payAndComplete(): Promise<boolean> {
    if (!this.intent) throw new Error('no payment was started');
    const confirmed = await this.send('POST', '/api/sandbox/confirm', {
      ...this.intent,
      cardNumber: SALE_CARD,
      expiry: '12/34',
      cvc: '123',
    });
    if (confirmed.status !== 200 || confirmed.body.status !== 'succeeded') return false;
    const completed = await this.send('POST', '/api/complete-order', {
      stripePaymentIntentId: this.intent.paymentIntentId,
      shippingInfo: SALE_SHIPPING,
    });
    return completed.status === 200;
  }
}

/** `count` parents signed up, each from an address of their own, ten at a time. */
export async function parentsArriving(baseUrl: string, count: number, addressOf: (i: number) => string): Promise<SaleParent[]> {
  const parents = Array.from({ length: count }, (_, i) => new SaleParent(baseUrl, addressOf(i)));
  for (let i = 0; i < count; i += 10) await Promise.all(parents.slice(i, i + 10).map((p) => p.signUp()));
  return parents;
}

export interface PayPress {
  answers: Answer[];
  /** The slowest answer, from the moment every request was sent. */
  slowestMs: number;
}

/** Everyone presses Pay at the same moment. */
export async function pressPayAtOnce(parents: SaleParent[], addressOf?: (i: number) => string): Promise<PayPress> {
  const started = performance.now();
  const answers = await Promise.all(parents.map((p, i) => p.startPayment(addressOf?.(i))));
  return { answers, slowestMs: performance.now() - started };
}

/** How many answers came back with each status, e.g. {"200": 48, "409": 2}. */
export function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Answers that are neither an intent nor a refusal a person can read (409 or 429 with a message). */
export function unreadable(answers: readonly Answer[]): Answer[] {
  return answers.filter((a) =>
    a.status === 200
      ? typeof a.body.paymentIntentId !== 'string' || typeof a.body.clientSecret !== 'string'
      : ![409, 429].includes(a.status) || typeof a.body.message !== 'string',
  );
}

/** A distinct address for parent i, from a block of its own. */
export const addressInBlock =
  (block: number) =>
  (i: number): string =>
    `10.${block}.${Math.floor(i / 200)}.${(i % 200) + 1}`;
